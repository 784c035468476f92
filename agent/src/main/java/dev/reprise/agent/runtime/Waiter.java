package dev.reprise.agent.runtime;

import java.util.concurrent.locks.LockSupport;

/**
 * How a replayed thread waits for its turn (paper 000, Section 4.1.3). Most turns come within
 * microseconds, so a waiter first spins, then yields (there may be far more threads than the two
 * cores), then parks. Parked waiters are woken by {@link #progressed()}; the park is also timed,
 * backing off to 50 ms, so a thread that waits long uses next to no CPU. A replay that makes no progress at all for {@value #STALL_SECONDS}
 * seconds is stuck: it is reported with what each thread waits for.
 */
final class Waiter {
    private static final int SPINS = 200;
    private static final int YIELDS = 50;
    private static final long MAX_PARK_NANOS = 50_000_000;
    private static final int STALL_SECONDS = 20;

    /**
     * Changes whenever any thread completes a synchronization event. Increments may race and be
     * lost: waiters only need to see that it changed.
     */
    private static volatile long epoch;
    /**
     * Parked waiters, guarded by itself. Not a ConcurrentHashMap: under contention that draws the
     * waiting thread's ThreadLocalRandom probe, which is the program's state (a LongAdder picks
     * its cell by it), at moments no recording has.
     */
    private static final java.util.List<ThreadCtx> PARKED = new java.util.ArrayList<>();
    /**
     * How many waiters are parked. A waiter counts itself before its last readiness check and a
     * publisher updates progress before reading the count (both volatile), so one of the two
     * always sees the other: no wake-up is lost, and the timed park is only a safety net. The
     * list's lock publishes the waiter's turn fields to the publisher.
     */
    private static volatile int parkedCount;

    private Waiter() {
    }

    static void await(ThreadCtx ctx) {
        for (int i = 0; i < SPINS; i++) {
            if (SyncOrder.ready(ctx)) {
                return;
            }
            Thread.onSpinWait();
        }
        for (int i = 0; i < YIELDS; i++) {
            if (SyncOrder.ready(ctx)) {
                return;
            }
            Thread.yield();
        }
        long park = 10_000;
        watchFrom(ctx);
        while (!SyncOrder.ready(ctx)) {
            synchronized (PARKED) {
                PARKED.add(ctx);
                parkedCount = PARKED.size();
            }
            if (!SyncOrder.ready(ctx)) {
                LockSupport.parkNanos(park);
            }
            synchronized (PARKED) {
                PARKED.remove(ctx);
                parkedCount = PARKED.size();
            }
            park = Math.min(park * 2, MAX_PARK_NANOS);
            checkStall(ctx);
        }
    }

    /** Parks for good; only the JVM's exit ends it, or the stall report if no exit comes. */
    static void awaitExit(ThreadCtx ctx) {
        watchFrom(ctx);
        while (true) {
            LockSupport.parkNanos(100_000_000L);
            checkStall(ctx);
        }
    }

    /** Starts timing a long wait of {@code ctx} against the program's progress. */
    private static void watchFrom(ThreadCtx ctx) {
        ctx.seenEpoch = epoch;
        ctx.stalledSince = System.nanoTime();
    }

    /** Reports the replay stuck if no thread has progressed for {@value #STALL_SECONDS} seconds of this wait. */
    private static void checkStall(ThreadCtx ctx) {
        long e = epoch;
        if (e != ctx.seenEpoch) {
            watchFrom(ctx);
        } else if (System.nanoTime() - ctx.stalledSince > STALL_SECONDS * 1_000_000_000L) {
            Divergence.stalled(ctx);
        }
    }

    /** Wakes the parked waiters whose turn has come, only those: waking all would storm. */
    static void progressed() {
        epoch++;
        if (parkedCount != 0) {
            synchronized (PARKED) {
                for (ThreadCtx waiter : PARKED) {
                    if (SyncOrder.ready(waiter)) {
                        LockSupport.unpark(waiter.thread);
                    }
                }
            }
        }
    }
}
