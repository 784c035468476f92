package dev.reprise.agent.ops.net;

import dev.reprise.agent.ops.Prologue;
import dev.reprise.agent.runtime.events.Rt;
import dev.reprise.agent.runtime.session.OutsideWorld;

/**
 * The guard on what Reprise does not record ({@link OutsideWorld}): a socket of JDK 17's legacy
 * implementation, {@code PlainSocketImpl}, which a program gets only with
 * {@code -Djdk.net.usePlainSocketImpl} and which reaches the kernel through natives of its own
 * rather than {@code sun.nio.ch}'s ({@link SocketOps}). Nothing is logged.
 */
public final class OutsideWorldOps {
    private OutsideWorldOps() {
    }

    @Prologue(owner = "java/net/AbstractPlainSocketImpl", method = "create", desc = "(Z)V", optional = true,
            kind = Prologue.Kind.BEFORE)
    public static void legacySocket(Object impl, boolean stream) {
        try {
            OutsideWorld.attempt(OutsideWorld.Kind.LEGACY_SOCKET, "");
        } finally {
            Rt.release();
        }
    }
}
