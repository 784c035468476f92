package dev.reprise.agent.runtime.ordering;

import dev.reprise.agent.runtime.events.ThreadCtx;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * Recording: the per-slot locks that make an event and its record atomic against the slot's
 * other events (rule 2, {@link SyncOrder}). Not {@code ReentrantLock}: Reprise orders the synchronization actions inside
 * {@code java.util.concurrent}, so each of its lock operations would itself run half a dozen
 * bracketed actions, on the hot path of every action it orders. These locks are plain
 * compare-and-set on an array no instrumented code touches.
 *
 * <p>A slot is held for one field access or CAS and its record, for a held monitor's record
 * (or, for a thread start or an unpark, one short JDK call), so a waiter spins briefly and then yields: with more threads than
 * cores, the holder may be descheduled, and yielding lets it finish. Reentrant, as a thread
 * starting another may meet its own slot again inside the JDK's live work.
 *
 * <p>Two sets, one per table of {@link SyncOrder}: an operation's lock may be held while the JDK
 * call it orders blocks on a monitor, whose holder takes a memory lock to record acquiring it.
 */
final class SlotLocks {
    /** Synchronization actions and monitor acquisitions: a word of each memory slot's line. */
    static final SlotLocks MEMORY = new SlotLocks(RecordOrder.MEMORY_SLOTS, SyncOrder.MEMORY_STRIDE);
    /** Thread starts, interrupts, parks and unparks. */
    static final SlotLocks OPERATIONS = new SlotLocks(new long[SyncOrder.SLOTS], 1);

    private static final VarHandle WORD = MethodHandles.arrayElementVarHandle(long[].class);
    private static final int SPINS = 64;
    /** One nested hold, counted in a lock word's high half. */
    private static final long HOLD = 1L << 32;

    /**
     * Word {@code slot * stride} is the slot's lock: 0, or its holder's recorded thread index
     * plus one, with nested holds beyond the first above bit 32. Taken by compare-and-set from 0
     * (acquire), freed by a release store; only the holder changes a held word. The other words
     * of the stride are the table's, which only the holder reads or writes: one cache line then
     * carries both the lock and what it guards.
     */
    private final long[] words;
    private final int stride;

    private SlotLocks(long[] words, int stride) {
        this.words = words;
        this.stride = stride;
    }

    void lock(ThreadCtx ctx, int slot) {
        int at = slot * stride;
        long me = ctx.index + 1;
        if (WORD.compareAndSet(words, at, 0L, me)) {
            return;
        }
        long word = (long) WORD.getOpaque(words, at);
        if ((word & (HOLD - 1)) == me) {
            WORD.setOpaque(words, at, word + HOLD);
            return;
        }
        // Wait reading, and try only a free lock: a failing compare-and-set takes the line from
        // the holder, who is about to write the table's words and the release on it.
        for (int i = 0; (long) WORD.getOpaque(words, at) != 0L || !WORD.compareAndSet(words, at, 0L, me); i++) {
            if (i < SPINS) {
                Thread.onSpinWait();
            } else {
                Thread.yield();
            }
        }
    }

    void unlock(int slot) {
        int at = slot * stride;
        long word = (long) WORD.getOpaque(words, at);
        if (word >= HOLD) {
            WORD.setOpaque(words, at, word - HOLD);
            return;
        }
        // Release: the holder's record (the slot's table words, the sequence number) is visible
        // to the next thread whose compare-and-set takes the slot.
        WORD.setRelease(words, at, 0L);
    }
}
