package dev.reprise.agent.runtime.ordering;

import dev.reprise.agent.runtime.events.ThreadCtx;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.LockSupport;

/**
 * Replay, RTO: the relaxed events a thread made after its stream's last written event, when the
 * recording's exit cut the thread off. A thread counts its relaxed events and writes the count
 * only before its next written event (decision 0009), so the exit loses the count of a thread
 * parked or running then. Other threads' recorded events may be ordered after those lost ones:
 * a pool worker queues itself on a lock and parks, and the thread that releases the lock reads
 * the queue, signals it, and goes on to the exit. Replaying that release before the worker has
 * queued itself takes another path.
 *
 * <p>So a thread at its stream's end takes such events on demand: it waits, and a thread whose
 * edge names a later event of it asks for events up to that one ({@link #ask}), which it takes
 * as relaxed, without waiting, as relaxed events are replayed. Only the events asked for: the
 * thread went on past them to the cut, and events the recording holds no trace of could
 * overtake other threads' reads they followed. An event asked for that the recording had
 * ordered (one the thread made just before the cut and the exit did not flush) is taken
 * unordered too; one that is not a relaxed synchronization event ends the thread's replay there,
 * as the end of its stream did before ({@code ReplaySession.endOfRecording}).
 */
public final class CutTails {
    private static final VarHandle WAITING = MethodHandles.arrayElementVarHandle(ThreadCtx[].class);

    /**
     * Per thread index, the threads waiting at their stream's end, and the count of events asked
     * of each (volatile accesses). A waiter stores itself, then reads its demand before each park;
     * an asker raises the demand of a waiter it finds, then unparks it. An asker that looked
     * before the waiter stored itself asks again at its next check ({@link Waiter#await} asks
     * before each of its parks), so no demand is lost. In a class of its own, made when a thread
     * first waits so ({@link #waited}): most replays never need it.
     */
    private static final class Table {
        static final ThreadCtx[] WAITERS = new ThreadCtx[SyncOrder.MAX_THREADS];
        static final long[] DEMAND = new long[SyncOrder.MAX_THREADS];
    }

    /** Set by the first thread that waits at its stream's end: until then an asker need not look in the {@link Table}. */
    private static volatile boolean waited;

    private CutTails() {
    }

    /**
     * {@code ctx}'s stream has ended: parks until another thread asks for a later event of it,
     * and returns the count asked for, more than the thread has completed. Returns never if no
     * thread asks: the exit, or the recording's end ({@code RecordingEnd}), halts the JVM.
     */
    public static long await(ThreadCtx ctx) {
        int index = ctx.index;
        waited = true;
        WAITING.setVolatile(Table.WAITERS, index, ctx);
        try {
            while (true) {
                long asked = (long) SyncOrder.LONGS.getVolatile(Table.DEMAND, index);
                if (asked > ctx.syncCount) {
                    return asked;
                }
                LockSupport.parkNanos(100_000_000L);
            }
        } finally {
            WAITING.setVolatile(Table.WAITERS, index, (ThreadCtx) null);
        }
    }

    /** {@code ctx} waits for an edge: asks each thread it waits for that waits at its stream's end. */
    static void ask(ThreadCtx ctx) {
        if (!waited) {
            return;
        }
        for (int i = 0; i < ctx.awaitEdges; i++) {
            int thread = ctx.awaitThreads[i];
            if (thread < 0) {
                continue;
            }
            ThreadCtx waiter = (ThreadCtx) WAITING.getVolatile(Table.WAITERS, thread);
            if (waiter == null) {
                continue;
            }
            long count = ctx.awaitCounts[i];
            if (ReplayOrder.progress(thread) >= count) {
                continue;
            }
            long asked;
            do {
                asked = (long) SyncOrder.LONGS.getVolatile(Table.DEMAND, thread);
            } while (asked < count && !SyncOrder.LONGS.compareAndSet(Table.DEMAND, thread, asked, count));
            LockSupport.unpark(waiter.thread);
        }
    }
}
