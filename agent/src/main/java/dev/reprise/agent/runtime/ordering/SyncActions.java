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
 * The synchronization actions of the Java memory model outside monitors: volatile reads and
 * writes, and atomic accesses through {@code Unsafe} and {@code VarHandle}, on which
 * {@code java.util.concurrent} builds every lock, queue, pool and future. Each is an ordered event
 * on its location: a write (any action that may change it) after the location's last write and
 * every read since, a read after the last write only, since reads do not conflict
 * ({@link RecordOrder#recordAction}). An event that its thread's earlier events already order is
 * relaxed, so a thread working on its own objects, or reading what no one writes, logs only
 * relaxed headers and replay does not wait for it.
 *
 * <p>{@code instrument/SyncActionRewriter} brackets every such instruction: {@link #enter} (or
 * {@link #enterStatic}, {@link #enterHandle}) with the location, the instruction, then {@link #exit} (also on the
 * exception path). Recording takes
 * the slot's lock in {@code enter} and releases it in {@code exit}, so the action and its record
 * are atomic against every other action on the slot (rule 2, {@link SyncOrder}); a thread that runs alone
 * needs no lock ({@link SyncOrder#alone}), nor does a read of a slot the thread read since its
 * last write, which a write waits for instead ({@link UnlockedReads}). Replay waits in
 * {@code enter} for the action's turn and publishes its completion in {@code exit}, after the
 * action took effect, so the next action on the location sees it.
 *
 * <p>Nothing but the order is logged: a correctly synchronized program that performs its
 * synchronization actions in the recorded order computes the recorded values.
 *
 * <p>The entry points are never inlined ({@code @DontInline}): a bracket in compiled code is two
 * calls, and the thread lookup and event path behind them are compiled once, not into every
 * bracketed method (docs/ARCHITECTURE.md, "Compiled code").
 */
public final class SyncActions {
    private static final Op ACTION = Op.withRelaxedTwin("sync.action");

    private SyncActions() {
    }

    /**
     * Before an action on a field or element of {@code location}: a read if {@code site} is
     * negative (the site negated), else a write or read-modify-write. Null (an NPE to come) is no
     * event. One entry point for both, so that C2 compiles the recording path once, not once per
     * kind (docs/ARCHITECTURE.md, "Compiled code").
     */
    @DontInline
    public static void enter(Object location, int site) {
        enter(location, site, false);
    }

    /**
     * Before an action of the JDK code that keeps a thread's own state in its {@code Thread}
     * object through {@code Unsafe} or a {@code VarHandle} (random seeds and probe, the park
     * blocker, thread locals erased): on a {@code Thread} that state is the thread's alone, no
     * synchronization, and no event; on anything else, as {@link #enter}. Only those classes
     * call this ({@code instrument/SyncActionRewriter}): elsewhere a {@code Thread} location is a
     * subclass's field that threads share, as a scheduler links its parked workers through them.
     */
    @DontInline
    public static void enterUnlessThread(Object location, int site) {
        if (location instanceof Thread) {
            if (Rt.active) {
                nested(Rt.current());
            }
            return;
        }
        enter(location, site, false);
    }

    /**
     * Before a write a hook orders itself inside a JDK call that {@code instrument/QuietCallRewriter}
     * made quiet: ordered as {@link #enter}'s, the quiet notwithstanding. The hook decided the
     * action is the program's ({@code ops/classes/ClassValueOrder}).
     */
    @DontInline
    public static void enterDespiteQuiet(Object location, int site) {
        enter(location, site, true);
    }

    private static void enter(Object location, int site, boolean despiteQuiet) {
        boolean action = location != null;
        if (action && takenAlone()) {
            return;
        }
        if (!Rt.active) {
            return;
        }
        ThreadCtx ctx = Rt.current();
        if (ctx.depth == 0 && (ctx.quiet == 0 || despiteQuiet) && action) {
            ctx.depth = 1;
            start(ctx, SyncOrder.eventSlot(ctx, location), site);
        } else {
            nested(ctx);
        }
    }

    /**
     * The key of static field {@code field} declared by {@code declarer} (an internal name), by
     * which its actions are ordered ({@link #enterStatic}): computed when a class is instrumented
     * for {@code getstatic}/{@code putstatic}, at run time for a handle ({@link StaticFieldHandles}).
     */
    public static int staticFieldKey(String declarer, String field) {
        return (declarer + "." + field).hashCode();
    }

    /**
     * Before an {@code Unsafe} access to (base, offset), as {@link #enter} for a base; with a null
     * base, the offset is an absolute address (memory from {@code allocateMemory}, a direct
     * buffer's), and the action is ordered on the address's 64-byte line: lock-free libraries
     * (Agrona's ring buffers and counters) keep their shared state there. Replay orders by the
     * recorded edges, not by address, so that its addresses differ does not matter.
     */
    @DontInline
    public static void enterUnsafe(Object base, long offset, int site) {
        if (base != null) {
            enter(base, site, false);
        } else {
            enterStatic(addressKey(offset), site);
        }
    }

    /** The key of the 64-byte line of address {@code address}, in the keys' space static fields share. */
    private static int addressKey(long address) {
        long line = address >>> 6;
        return (int) (line ^ (line >>> 32)) * 0x2F0F3B5D;
    }

    /** Before an action on the static field whose {@link #staticFieldKey} is {@code key}; a read if {@code site} is negative. */
    @DontInline
    public static void enterStatic(int key, int site) {
        if (takenAlone()) {
            return;
        }
        if (!Rt.active) {
            return;
        }
        ThreadCtx ctx = Rt.current();
        if (ctx.depth == 0 && ctx.quiet == 0) {
            ctx.depth = 1;
            start(ctx, SyncOrder.eventSlotOfKey(ctx, key), site);
        } else {
            nested(ctx);
        }
    }

    /**
     * Before an action through a {@code VarHandle} without coordinates, on a static field: ordered
     * as the field's {@code getstatic} and {@code putstatic} are ({@link StaticFieldHandles}).
     */
    @DontInline
    public static void enterHandle(Object handle, int site) {
        long key = StaticFieldHandles.keyOf(handle);
        if (key == StaticFieldHandles.NO_FIELD) {
            enter(handle, site);
        } else {
            enterStatic((int) key, site);
        }
    }

    /** Whether main, running alone, took the action about to begin ({@link AloneMain#take}). */
    private static boolean takenAlone() {
        ThreadCtx alone = AloneMain.take();
        if (alone == null) {
            return false;
        }
        alone.actionSlot = SyncOrder.TAKEN;
        return true;
    }

    /**
     * Before a call the JDK itself makes into {@code java.util.concurrent}
     * ({@code instrument/QuietCallRewriter}): until the matching {@link #loud}, the thread's
     * synchronization (actions, monitors, parks) is live and unordered. The JDK's caches are
     * filled differently by Reprise's own work when recording and when replaying, so their
     * actions could not be matched; the answers they give are the same either way. What their
     * contention does to the thread's ThreadLocalRandom probes is undone at the end.
     */
    @DontInline
    public static void quiet() {
        if (Rt.active) {
            ThreadCtx ctx = Rt.current();
            if (ctx != ThreadCtx.UNRECORDED && ctx.quiet++ == 0) {
                ctx.quietProbes = ThreadRandoms.probes();
            }
        }
    }

    /** After the call {@link #quiet} preceded, also when it threw. */
    @DontInline
    public static void loud() {
        if (Rt.active) {
            ThreadCtx ctx = Rt.current();
            if (ctx != ThreadCtx.UNRECORDED && --ctx.quiet == 0) {
                ThreadRandoms.restore(ctx.quietProbes);
            }
        }
    }

    /** Whether the current thread's synchronization is unordered for now ({@link #quiet}). */
    public static boolean quietNow() {
        return Rt.current().quiet != 0;
    }

    /**
     * An action that is no event. Inside an action's event (the JVM linking a {@code VarHandle}
     * call runs the JDK's own code), it is counted, so that its {@link #exit} is not taken for
     * the outer one's.
     */
    private static void nested(ThreadCtx ctx) {
        if (ctx.actionSlot >= 0) {
            ctx.actionNest++;
        }
    }

    /** An action on {@code slot}: taken without an event where it can be ({@link SyncOrder#take}), else begun. */
    private static void start(ThreadCtx ctx, int slot, int signedSite) {
        if (SyncOrder.take(ctx, slot)) {
            ctx.actionSlot = SyncOrder.TAKEN;
        } else {
            begin(ctx, slot, signedSite);
        }
    }

    private static void begin(ThreadCtx ctx, int slot, int signedSite) {
        boolean read = signedSite < 0;
        int site = read ? -signedSite : signedSite;
        if (!ctx.ev.recording()) {
            ReplayOrder.awaitTurn((ReplayEv) Ev.begin(ctx, ACTION, site, 0), ctx);
        } else {
            if (slot == SyncOrder.NO_SLOT) {
                // Main alone, in a stream whose count must be written (Ev.takeRelaxed): no lock.
                RecordOrder.recordRelaxed((RecordEv) Ev.begin(ctx, ACTION, site, 0), ctx);
            } else if (read && UnlockedReads.begin(ctx, slot)) {
                // A read of a slot this thread read since its last write: relaxed, without the lock.
                RecordOrder.recordRelaxed(RecordEv.prepare(ctx, ACTION, site, 0), ctx);
                slot = SyncOrder.UNLOCKED;
            } else {
                // Most actions are relaxed: the event is opened only if it is ordered (RecordEv.prepare).
                SlotLocks.MEMORY.lock(ctx, slot);
                RecordOrder.recordAction(RecordEv.prepare(ctx, ACTION, site, 0), ctx, slot, Session.current().config().order(), read);
            }
        }
        ctx.actionSlot = slot;
    }

    /** After the action, or when it threw; does nothing if its {@code enter} made no event. */
    @DontInline
    public static void exit() {
        ThreadCtx alone = AloneMain.takenAction();
        if (alone != null) {
            end(alone, SyncOrder.TAKEN);
            return;
        }
        if (!Rt.active) {
            return;
        }
        ThreadCtx ctx = Rt.current();
        int slot = ctx.actionSlot;
        if (slot < 0) {
            return;
        }
        if (ctx.actionNest > 0) {
            ctx.actionNest--;
            return;
        }
        end(ctx, slot);
    }

    private static void end(ThreadCtx ctx, int slot) {
        ctx.actionSlot = -1;
        if (slot == SyncOrder.TAKEN) {
            SyncOrder.completedTaken(ctx);
            return;
        }
        Ev ev = ctx.ev;
        if (!ev.recording()) {
            ReplayOrder.completed(ctx);
        } else if (slot == SyncOrder.UNLOCKED) {
            UnlockedReads.end(ctx, ctx.syncCount);
        } else if (slot != SyncOrder.NO_SLOT) {
            SlotLocks.MEMORY.unlock(slot);
        }
        ev.end();
    }
}
