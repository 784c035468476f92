package dev.reprise.agent.runtime;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * Recording: the per-slot locks that make a non-monitor operation and its record atomic (DESIGN,
 * rule 2). Not {@code ReentrantLock}: Reprise orders the synchronization actions inside
 * {@code java.util.concurrent}, so each of its lock operations would itself run half a dozen
 * bracketed actions, on the hot path of every action it orders. These locks are plain
 * compare-and-set on an array no instrumented code touches.
 *
 * <p>A slot is held for one field access or CAS and its record (or, for a thread start or an
 * unpark, one short JDK call), so a waiter spins briefly and then yields: with more threads than
 * cores, the holder may be descheduled, and yielding lets it finish. Reentrant, as a thread
 * starting another may meet its own slot again inside the JDK's live work.
 */
final class SlotLocks {
    private static final VarHandle OWNER = MethodHandles.arrayElementVarHandle(int[].class);
    private static final int SPINS = 64;

    /**
     * The holder per slot, as its recorded thread's index plus one, or 0. Written by CAS (acquire)
     * and release stores only.
     */
    private static final int[] OWNERS = new int[SyncOrder.SLOTS];
    /** Nested holds per slot beyond the first; read and written only by the slot's holder. */
    private static final int[] HOLDS = new int[SyncOrder.SLOTS];

    private SlotLocks() {
    }

    static void lock(ThreadCtx ctx, int slot) {
        int me = ctx.index + 1;
        if (OWNER.compareAndSet(OWNERS, slot, 0, me)) {
            return;
        }
        if ((int) OWNER.getOpaque(OWNERS, slot) == me) {
            HOLDS[slot]++;
            return;
        }
        for (int i = 0; !OWNER.compareAndSet(OWNERS, slot, 0, me); i++) {
            if (i < SPINS) {
                Thread.onSpinWait();
            } else {
                Thread.yield();
            }
        }
    }

    static void unlock(int slot) {
        if (HOLDS[slot] > 0) {
            HOLDS[slot]--;
            return;
        }
        // Release: the holder's record (the slot's last owner, the sequence number) is visible
        // to the next thread whose compare-and-set takes the slot.
        OWNER.setRelease(OWNERS, slot, 0);
    }
}
