package dev.reprise.agent.runtime.ordering;

import dev.reprise.agent.runtime.events.Ev;
import dev.reprise.agent.runtime.events.Op;
import dev.reprise.agent.runtime.events.RecordEv;
import dev.reprise.agent.runtime.events.ReplayEv;
import dev.reprise.agent.runtime.events.Rt;
import dev.reprise.agent.runtime.events.Session;
import dev.reprise.agent.runtime.events.ThreadCtx;
import dev.reprise.core.config.Order;
import jdk.internal.vm.annotation.DontInline;

/**
 * Ordered synchronization events for hooks, in two shapes.
 *
 * <p>Monitors: {@link #beforeMonitor} runs before {@code monitorenter} (replay: waits for the
 * event's turn) and {@link #afterMonitor} after it (record: logs the acquisition while holding
 * the monitor; replay: publishes progress). The monitor makes acquisition and record atomic
 * against the monitor's other acquisitions; the record takes the slot's lock against the other
 * events on the slot ({@link RecordOrder#recordMonitor}).
 *
 * <p>Other operations (starting a thread, interrupting one): {@link #enter} takes the resource's
 * slot lock (record) or waits for the turn (replay); the hook performs the operation; then
 * {@link #exit} releases. The slot lock is what makes the operation and its record atomic.
 */
public final class Ordered {
    /** {@code orderedSlot} of an operation that is an event but not ordered (in a JDK class initializer). */
    private static final int UNORDERED = -2;

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
        ThreadCtx alone = AloneMain.take();
        if (alone != null) {
            alone.pendingSlot = SyncOrder.TAKEN;
            return alone;
        }
        ThreadCtx ctx = Rt.claimContext();
        if (ctx != null && ctx.quiet != 0) {
            ctx.depth = 0; // inside the JDK's own call into java.util.concurrent: live ({@link SyncActions#quiet})
            return null;
        }
        if (ctx == null) {
            return null;
        }
        int slot = SyncOrder.eventSlot(ctx, monitor);
        if (SyncOrder.take(ctx, slot)) {
            ctx.pendingSlot = SyncOrder.TAKEN;
        } else {
            ctx.pendingSlot = slot;
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
        if (ctx.quiet != 0) {
            ctx.depth = 0; // live, as in beforeMonitor
            return null;
        }
        ctx.pendingSlot = SyncOrder.slotOf(ctx, lock);
        begin(ctx, op, site);
        return ctx;
    }

    /** Not inlined into the lock methods whose prologue hooks call {@link #beforeLock} (docs/ARCHITECTURE.md, "Compiled code"). */
    @DontInline
    private static void begin(ThreadCtx ctx, Op op, int site) {
        Ev ev = Ev.begin(ctx, op, site, 0);
        if (!ev.recording()) {
            ReplayOrder.awaitTurn((ReplayEv) ev, ctx);
        }
    }

    /**
     * After the monitor (or the lock of {@link #beforeLock}) is held; {@code claimed} is what the
     * before-hook returned. Passing it through, rather than keeping it in the thread's state,
     * keeps monitors taken while the event was being read (reports, chaos) out of the event.
     */
    public static void afterMonitor(ThreadCtx claimed) {
        if (claimed == null) {
            return;
        }
        if (claimed.pendingSlot == SyncOrder.TAKEN) {
            SyncOrder.completedTaken(claimed);
        } else {
            acquired(claimed, claimed.pendingSlot);
        }
    }

    /** Not inlined, like {@link #begin}. */
    @DontInline
    private static void acquired(ThreadCtx ctx, int slot) {
        Ev ev = ctx.ev;
        if (ev.recording()) {
            RecordOrder.recordMonitor((RecordEv) ev, ctx, slot, order());
        } else {
            ReplayOrder.completed(ctx);
        }
        ev.end();
    }

    /** Record: logs the re-acquisition of {@code monitor} after {@code wait}, holding it again. */
    public static void recordReacquired(Ev ev, Object monitor) {
        ThreadCtx ctx = Rt.current();
        RecordOrder.recordMonitor((RecordEv) ev, ctx, SyncOrder.eventSlot(ctx, monitor), order());
    }

    /** A real, short, timed wait that releases the resource meanwhile ({@code Object.wait}, {@code Condition.awaitNanos}). */
    @FunctionalInterface
    public interface TimedWait {
        void await(long millis) throws Throwable;
    }

    /**
     * Replay of returning from a wait: the thread holds {@code resource} and must let others take
     * it until its recorded turn to re-acquire it, so it waits for real, in short timed waits
     * (notifications of the replayed program wake it early).
     */
    public static void replayReacquire(Ev ev, Object resource, TimedWait wait) throws Throwable {
        ThreadCtx ctx = Rt.current();
        // As recordReacquired does: a monitor entered while main ran alone may meet its first
        // slot lookup, and with it its identity hash, here.
        SyncOrder.eventSlot(ctx, resource);
        ReplayOrder.readTurn((ReplayEv) ev, ctx);
        long millis = 1;
        while (!ReplayOrder.ready(ctx)) {
            try {
                wait.await(millis);
            } catch (InterruptedException e) {
                // interrupts are replayed from the recording, never delivered live
            }
            millis = Math.min(millis * 2, 50);
        }
        ReplayOrder.completed(ctx);
    }

    /**
     * Starts an ordered operation on {@code resource} on a thread whose call was claimed. The
     * returned event stays open: code its results, then call {@link #exit}.
     */
    public static Ev enter(Op op, int site, int digest, Object resource) {
        ThreadCtx ctx = Rt.current();
        Ev ev = Ev.begin(op, site, digest);
        if (ctx.jdkInit) {
            ctx.orderedSlot = UNORDERED; // a JDK class initializer's stream has no index: nothing orders against it
            return ev;
        }
        int slot = SyncOrder.slotOf(ctx, resource);
        if (ev.recording()) {
            SlotLocks.OPERATIONS.lock(ctx, slot);
            RecordOrder.recordOperation((RecordEv) ev, ctx, slot, order());
        } else {
            ReplayOrder.awaitTurn((ReplayEv) ev, ctx);
        }
        ctx.orderedSlot = slot;
        return ev;
    }

    /** Ends an operation begun with {@link #enter}; safe to call from a {@code finally}. */
    public static void exit(Ev ev) {
        ThreadCtx ctx = Rt.current();
        int slot = ctx.orderedSlot;
        if (slot == UNORDERED) {
            ctx.orderedSlot = -1;
            ev.end();
            return;
        }
        if (slot < 0) {
            return;
        }
        ctx.orderedSlot = -1;
        if (ev.recording()) {
            SlotLocks.OPERATIONS.unlock(slot);
        } else {
            ReplayOrder.completed(ctx);
        }
        ev.end();
    }

    /**
     * Begins the event of a {@code wait} on {@code monitor}, on the thread whose call claimed it
     * ({@link Rt#claimContext}). Should the thread's stream end there, the exit cut the recording
     * while the thread waited, the monitor released, and the recording's other threads may take
     * it after: replay waits for the exit in real waits on the monitor
     * ({@code ReplaySession.endOfRecording}), not holding it.
     */
    public static Ev beginWait(ThreadCtx ctx, Op op, int site, Object monitor) {
        ctx.waitMonitor = monitor;
        try {
            return Ev.begin(ctx, op, site, 0);
        } finally {
            ctx.waitMonitor = null;
        }
    }
}
