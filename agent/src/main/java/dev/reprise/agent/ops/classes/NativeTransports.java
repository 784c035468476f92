package dev.reprise.agent.ops.classes;

import java.nio.file.Path;

import dev.reprise.agent.runtime.Divergence;

/**
 * Native libraries that reach the network themselves, through system calls no hook sees: Netty's
 * native transports (epoll, io_uring, kqueue, in Netty and in the copies libraries shade). A
 * recording could not replay what they did, and a replay running them would open real sockets.
 * Netty falls back to the JDK's sockets, which are recorded, whenever its native transport does
 * not load: so a recording refuses to load one (the load throws an {@code UnsatisfiedLinkError}
 * saying why), says so once, and its replays throw what it threw.
 */
final class NativeTransports {
    private static final String[] REFUSED = {"netty_transport_native_epoll", "netty_transport_native_io_uring",
        "netty_transport_native_kqueue"};
    /** Set once the note was written; a second note from a racing thread is harmless. */
    private static volatile boolean told;

    private NativeTransports() {
    }

    /** The error a recording's load of {@code file} throws, or null if the library may load. */
    static UnsatisfiedLinkError refusal(String file) {
        String name = Path.of(file).getFileName().toString();
        for (String refused : REFUSED) {
            if (name.contains(refused)) {
                if (!told) {
                    told = true;
                    Divergence.message("not loading " + name + ": a native transport does its network I/O where Reprise"
                            + " does not record it; the program falls back to the JDK's sockets");
                }
                return new UnsatisfiedLinkError("not loaded under Reprise (native network I/O is not recorded): " + name);
            }
        }
        return null;
    }
}
