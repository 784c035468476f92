package dev.reprise.agent.runtime.ordering;

import dev.reprise.agent.runtime.events.ThreadCtx;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.LockSupport;

/**
 * How a replayed thread waits for its turn. Most turns come within
 * microseconds, so a waiter first spins, then yields (there may be far more threads than the two
 * cores), then parks. Parked waiters are woken by {@link #progressed()}; the park is also timed,
 * backing off to 50 ms, so a thread that waits long uses next to no CPU. A replay whose waits
 * never end is reported by {@code StallWatch}.
 */
public final class Waiter {
    private static final int SPINS = 200;
    private static final int YIELDS = 50;
    private static final long MAX_PARK_NANOS = 50_000_000;

    private static final VarHandle SLOTS = MethodHandles.arrayElementVarHandle(ThreadCtx[].class);
    /**
     * Parked waiters by thread index, else null. Not a ConcurrentHashMap or a list under a lock:
     * every completed event looks here, and a map under contention draws the waiting thread's
     * ThreadLocalRandom probe, which is the program's state (a LongAdder picks its cell by it).
     * In a class of its own, made when a replay first parks a waiter or wakes one: a recording,
     * which also uses this class, never needs it.
     */
    private static final class Parked {
        static final ThreadCtx[] BY_THREAD = new ThreadCtx[SyncOrder.MAX_THREADS];
    }
    /**
     * How many waiters are parked. A waiter publishes itself and counts itself before its last
     * readiness check, and a publisher updates progress before reading the count (all volatile),
     * so one of the two always sees the other: no wake-up is lost, and the timed park is only a
     * safety net.
     */
    private static volatile int parkedCount;
    /**
     * Counts through a VarHandle, not an AtomicInteger: Reprise brackets the accesses of
     * java.util.concurrent classes as the program's synchronization actions.
     */
    private static final VarHandle PARKED_COUNT = staticInt("parkedCount");

    private Waiter() {
    }

    private static VarHandle staticInt(String name) {
        try {
            return MethodHandles.lookup().findStaticVarHandle(Waiter.class, name, int.class);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }

    public static void await(ThreadCtx ctx) {
        for (int i = 0; i < SPINS; i++) {
            if (ReplayOrder.ready(ctx)) {
                return;
            }
            Thread.onSpinWait();
        }
        for (int i = 0; i < YIELDS; i++) {
            if (ReplayOrder.ready(ctx)) {
                return;
            }
            Thread.yield();
        }
        long park = 10_000;
        boolean parked = false;
        while (!ReplayOrder.ready(ctx)) {
            CutTails.ask(ctx);
            SLOTS.setVolatile(Parked.BY_THREAD, ctx.index, ctx);
            PARKED_COUNT.getAndAdd(1);
            if (!ReplayOrder.ready(ctx)) {
                LockSupport.parkNanos(park);
                parked = true;
            }
            SLOTS.setVolatile(Parked.BY_THREAD, ctx.index, (ThreadCtx) null);
            PARKED_COUNT.getAndAdd(-1);
            park = Math.min(park * 2, MAX_PARK_NANOS);
        }
        if (parked) {
            givePermitBack();
        }
    }

    /**
     * After Reprise's own park on a replayed thread: that park may have taken the permit an unpark
     * left for the program's next park, a live one in the JDK's quiet code, which would then wait
     * forever (a virtual thread's socket poller unparks it once the socket is registered, which
     * may be before it parks). The permit is given back; where there was none, the program's park
     * returns at once, a spurious wake-up, which every park allows and every caller re-checks.
     */
    static void givePermitBack() {
        LockSupport.unpark(Thread.currentThread());
    }

    /**
     * Parks for good; only the JVM's exit ends it, or the stall report if no exit comes ({@code StallWatch}). A thread
     * whose stream ends at a wait ({@link ThreadCtx#waitMonitor}) waits on that monitor instead.
     */
    public static void awaitExit(ThreadCtx ctx) {
        Object waitMonitor = ctx.waitMonitor;
        while (true) {
            if (waitMonitor == null) {
                LockSupport.parkNanos(100_000_000L);
            } else {
                // Cut in a wait: the recording's other threads had the monitor from then on.
                waitQuietly(waitMonitor);
            }
        }
    }

    /** Waits on {@code monitor}, which the caller holds, for 100 ms; an interrupt is not the program's here. */
    private static void waitQuietly(Object monitor) {
        try {
            monitor.wait(100L);
        } catch (InterruptedException e) {
            // Replay delivers no interrupt; the thread only waits for the exit.
        }
    }

    /**
     * Record: a new thread's wait until its parent has logged starting it. That takes the parent
     * microseconds after the start returns, unless it is descheduled: spin, yield, then park.
     */
    static void awaitAnnounced(Threads.Registration r) {
        for (int i = 0; !r.announced; i++) {
            if (i < SPINS) {
                Thread.onSpinWait();
            } else if (i < SPINS + YIELDS) {
                Thread.yield();
            } else {
                LockSupport.parkNanos(100_000);
            }
        }
    }

    /** Record: parks for good; the thread is past the exit's cut and only the JVM's halt ends it. */
    static void awaitHalt() {
        while (true) {
            LockSupport.park();
        }
    }

    /**
     * Wakes the parked waiters whose turn has come, only those: waking all would storm. The
     * waiter's turn fields were written before it published itself, so they are visible here.
     */
    static void progressed() {
        if (parkedCount != 0) {
            wake(0, Threads.indexes());
            wake(Threads.initFloor(), SyncOrder.MAX_THREADS);
        }
    }

    private static void wake(int from, int to) {
        for (int i = from; i < to; i++) {
            ThreadCtx waiter = (ThreadCtx) SLOTS.getVolatile(Parked.BY_THREAD, i);
            if (waiter != null && ReplayOrder.ready(waiter)) {
                LockSupport.unpark(waiter.thread);
            }
        }
    }
}
