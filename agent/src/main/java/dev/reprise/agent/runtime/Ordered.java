package dev.reprise.agent.runtime;

import java.util.concurrent.locks.ReentrantLock;

import dev.reprise.core.config.Order;

/**
 * Ordered synchronization events for hooks, in two shapes.
 *
 * <p>Monitors: {@link #beforeMonitor} runs before {@code monitorenter} (replay: waits for the
 * event's turn) and {@link #afterMonitor} after it (record: logs the acquisition while holding
 * the monitor; replay: publishes progress). The monitor itself makes operation and record atomic.
 *
 * <p>Other operations (starting a thread, interrupting one): {@link #enter} takes the resource's
 * slot lock (record) or waits for the turn (replay); the hook performs the operation; then
 * {@link #exit} releases. The slot lock is what makes the operation and its record atomic.
 */
public final class Ordered {
    private static final ReentrantLock[] LOCKS = new ReentrantLock[SyncOrder.SLOTS];

    static {
        for (int i = 0; i < LOCKS.length; i++) {
            LOCKS[i] = new ReentrantLock();
        }
    }

    private Ordered() {
    }

    private static Order order() {
        return Session.current().config().order();
    }

    /**
     * Before acquiring {@code monitor}: returns the claimed thread's context if this acquisition is
     * an event (pass it to {@link #afterMonitor}), else null. The monitor's slot is computed here,
     * while the monitor is usually not held: hashing a held monitor would inflate it.
     */
    public static ThreadCtx beforeMonitor(Op op, int site, Object monitor) {
        if (monitor == null) {
            return null; // monitorenter throws, outside any event
        }
        ThreadCtx ctx = Rt.claimContext();
        if (ctx != null) {
            ctx.pendingSlot = SyncOrder.slotOf(monitor);
            begin(ctx, op, site);
        }
        return ctx;
    }

    /**
     * Before acquiring a lock-like resource on a thread whose call is already claimed (a prologue
     * hook of a lock method); the hook then acquires it for real and calls {@link #afterMonitor}.
     */
    public static ThreadCtx beforeLock(Op op, int site, Object lock) {
        ThreadCtx ctx = Rt.current();
        ctx.pendingSlot = SyncOrder.slotOf(lock);
        begin(ctx, op, site);
        return ctx;
    }

    private static void begin(ThreadCtx ctx, Op op, int site) {
        Ev ev = Ev.begin(ctx, op, site, 0);
        if (!ev.recording()) {
            SyncOrder.awaitTurn(ev, ctx, ev.relaxed());
        }
    }

    /**
     * After the monitor (or the lock of {@link #beforeLock}) is held; {@code claimed} is what the
     * before-hook returned. Passing it through, rather than keeping it in the thread's state,
     * keeps monitors taken while the event was being read (reports, chaos) out of the event.
     */
    public static void afterMonitor(ThreadCtx claimed) {
        if (claimed != null) {
            acquired(claimed, claimed.pendingSlot);
        }
    }

    private static void acquired(ThreadCtx ctx, int slot) {
        Ev ev = ctx.ev;
        if (ev.recording()) {
            if (SyncOrder.recordAcquired(ev, ctx, slot, order())) {
                ev.markRelaxed();
            }
        } else {
            SyncOrder.completed(ctx);
        }
        ev.end();
    }

    /** Record: logs the re-acquisition of {@code monitor} after {@code wait}, holding it again. */
    public static void recordReacquired(Ev ev, Object monitor) {
        if (SyncOrder.recordAcquired(ev, Rt.current(), SyncOrder.slotOf(monitor), order())) {
            ev.markRelaxed();
        }
    }

    /** A real, short, timed wait that releases the resource meanwhile ({@code Object.wait}, {@code Condition.awaitNanos}). */
    @FunctionalInterface
    public interface TimedWait {
        void await(long millis) throws Throwable;
    }

    /** A real acquisition that blocks until it succeeds. */
    @FunctionalInterface
    public interface Acquire {
        void acquire() throws Throwable;
    }

    /**
     * Replay of returning from a wait: the thread holds {@code resource} and must let others take
     * it until its recorded turn to re-acquire it, so it waits for real, in short timed waits
     * (notifications of the replayed program wake it early).
     */
    public static void replayReacquire(Ev ev, Object resource, TimedWait wait) throws Throwable {
        ThreadCtx ctx = Rt.current();
        SyncOrder.readTurn(ev, ctx, ev.relaxed());
        long millis = 1;
        while (!SyncOrder.ready(ctx)) {
            try {
                wait.await(millis);
            } catch (InterruptedException e) {
                // interrupts are replayed from the recording, never delivered live
            }
            millis = Math.min(millis * 2, 50);
        }
        SyncOrder.completed(ctx);
    }

    /** A real acquisition attempt: true if acquired; may throw {@code InterruptedException}. */
    @FunctionalInterface
    public interface Attempt {
        boolean run() throws Throwable;
    }

    private static final int ACQUIRED = 1;
    private static final int FAILED = 2;
    private static final int INTERRUPTED = 3;

    /**
     * An acquisition that may fail or be interrupted ({@code tryLock}, timed and interruptible
     * waits), on a thread whose call is claimed. Recording tries for real and logs the outcome as
     * an {@code outcomeOp} event, then, if acquired, the ordered {@code acquireOp} acquisition
     * while holding the resource. Replay reads the outcome and, if acquired, takes its turn and
     * acquires for real with {@code blocking}, which cannot fail where the recording succeeded.
     */
    public static boolean attempt(Op outcomeOp, Op acquireOp, Object resource, Attempt live, Acquire blocking)
            throws Throwable {
        Ev ev = Ev.begin(outcomeOp, 0, 0);
        int outcome = 0;
        if (ev.live()) {
            try {
                outcome = live.run() ? ACQUIRED : FAILED;
            } catch (InterruptedException e) {
                outcome = INTERRUPTED;
            }
        }
        outcome = ev.i(outcome);
        ev.end();
        if (outcome == ACQUIRED) {
            succeeded(acquireOp, 0, resource, blocking);
        } else if (outcome == INTERRUPTED) {
            throw new InterruptedException();
        }
        return outcome == ACQUIRED;
    }

    /**
     * An acquisition whose attempt succeeded (its outcome already logged). Recording holds the
     * resource and logs the ordered acquisition; replay waits for its turn and then acquires for
     * real with {@code blocking}, which cannot fail where the recording succeeded.
     */
    public static void succeeded(Op op, int site, Object resource, Acquire blocking) throws Throwable {
        ThreadCtx ctx = Rt.current();
        ctx.depth = 1;
        ctx.pendingSlot = SyncOrder.slotOf(resource);
        Ev ev = Ev.begin(ctx, op, site, 0);
        if (!ev.recording()) {
            SyncOrder.awaitTurn(ev, ctx, ev.relaxed());
            blocking.acquire();
        }
        acquired(ctx, ctx.pendingSlot);
    }

    private static final Op METHOD = Op.ordered("sync.method");

    /**
     * Entry of a whole method made an ordered operation on {@code self} (see
     * {@code OrderedMethodRewriter}); {@code index} names the method and is its argument digest.
     * Ordered methods that such a method calls run inside its event, counted so that only the
     * outermost {@link #exitMethod} ends it.
     */
    public static void enterMethod(Object self, int index) {
        if (!Rt.active) {
            return; // also while Rt itself initializes: its ThreadLocal draws a hash from an AtomicInteger
        }
        ThreadCtx ctx = Rt.claimContext();
        if (ctx == null) {
            ThreadCtx current = Rt.current();
            if (current.orderedNest > 0) {
                current.orderedNest++;
            }
            return;
        }
        enter(METHOD, 0, index, self);
        ctx.orderedNest = 1;
    }

    public static void exitMethod() {
        if (!Rt.active) {
            return;
        }
        ThreadCtx ctx = Rt.current();
        if (ctx.orderedNest > 1) {
            ctx.orderedNest--;
        } else if (ctx.orderedNest == 1) {
            ctx.orderedNest = 0;
            exit(ctx.ev);
        }
    }

    /**
     * Starts an ordered operation on {@code resource} on a thread whose call was claimed. The
     * returned event stays open: code its results, then call {@link #exit}.
     */
    public static Ev enter(Op op, int site, int digest, Object resource) {
        ThreadCtx ctx = Rt.current();
        Ev ev = Ev.begin(op, site, digest);
        int slot = SyncOrder.slotOf(resource);
        if (ev.recording()) {
            LOCKS[slot].lock();
            if (SyncOrder.recordAcquired(ev, ctx, slot, order())) {
                ev.markRelaxed();
            }
        } else {
            SyncOrder.awaitTurn(ev, ctx, ev.relaxed());
        }
        ctx.orderedSlot = slot;
        return ev;
    }

    /** Ends an operation begun with {@link #enter}; safe to call from a {@code finally}. */
    public static void exit(Ev ev) {
        ThreadCtx ctx = Rt.current();
        int slot = ctx.orderedSlot;
        if (slot < 0) {
            return;
        }
        ctx.orderedSlot = -1;
        if (ev.recording()) {
            LOCKS[slot].unlock();
        } else {
            SyncOrder.completed(ctx);
        }
        ev.end();
    }
}
