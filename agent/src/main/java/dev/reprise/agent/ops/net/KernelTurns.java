package dev.reprise.agent.ops.net;

import dev.reprise.agent.runtime.events.Op;
import dev.reprise.agent.runtime.events.Rt;
import dev.reprise.agent.runtime.ordering.Ordered;

/**
 * The order in which the program's threads reached each other through the kernel. When one
 * thread writes to a socket, connects, or wakes a selector, and another thread of the same
 * program is woken by it (its read, accept or wait returns), the kernel ordered the two: what the
 * first did before is visible to the second after, even through the JDK's own locks, which a
 * recording does not order (a selector's queue of registrations). A replay answers every wait at
 * once, so it must order them itself: each such call takes a turn in one order, a waker before
 * its call (once what it did before is done) and a woken thread after its call (once the kernel
 * let it go), and a replay takes the turns in the recorded order.
 */
public final class KernelTurns {
    private static final Op TURN = Op.withRelaxedTwin("socket.turn");
    /** The one resource every turn orders on: the kernel, whose queues connect any two sockets. */
    private static final Object KERNEL = new Object();

    private KernelTurns() {
    }

    /** Takes the calling thread's turn, if its call is an event (claimable). */
    static void take() {
        if (Rt.claim()) {
            takeClaimed();
        }
    }

    /** Takes the turn of a thread whose call is claimed; releases the claim. */
    static void takeClaimed() {
        Ordered.exit(Ordered.enter(TURN, 0, 0, KERNEL));
    }
}
