package dev.reprise.agent.runtime.ordering;

import static dev.reprise.agent.runtime.ordering.SyncOrder.*;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Arrays;
import java.util.List;

import dev.reprise.agent.runtime.events.RecordEv;
import dev.reprise.agent.runtime.events.ThreadCtx;
import dev.reprise.core.config.Order;
import jdk.internal.vm.annotation.DontInline;

/**
 * The recording half of {@link SyncOrder}: decides whether each synchronization event is relaxed
 * or ordered, and logs an ordered one's edges (RTO) or turn (TO) into its open event.
 *
 * <p>Atomicity (rule 2): the record of an event and the event itself are atomic against
 * every other event on the slot. A slot's lock ({@link SlotLocks}) is held across an action or
 * an operation and its record; a monitor's record takes the memory slot's lock while the
 * monitor is held. The two tables have separate locks: an operation holds its lock across a JDK
 * call that may block on a monitor (a thread's start), and that monitor's holder may need the
 * memory lock to record its acquisition.
 *
 * <p>The shared counters are plain arrays and fields reached through VarHandles, not
 * {@code java.util.concurrent.atomic} classes, whose own accesses Reprise brackets as the
 * program's synchronization actions.
 */
public final class RecordOrder {
    private RecordOrder() {
    }

    private static final VarHandle LAST_ORDERED = SyncOrder.staticLong(MethodHandles.lookup(), "lastOrdered");
    private static final VarHandle SEQUENCE = SyncOrder.staticLong(MethodHandles.lookup(), "sequence");
    private static final VarHandle DRAWING;

    static {
        try {
            DRAWING = MethodHandles.lookup().findVarHandle(ThreadCtx.class, "drawing", boolean.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** Per operation slot, its last event, packed; volatile accesses through {@link SyncOrder#LONGS}. */
    private static final long[] OPERATION_SLOTS = new long[SLOTS];
    /**
     * Per memory slot, {@value SyncOrder#MEMORY_STRIDE} longs: the slot's lock ({@link SlotLocks#MEMORY}),
     * the last write, packed (0: none yet), then the last read of each thread that read since it,
     * packed, filled from the front (0 ends the list). Plain accesses to all but the lock: only
     * its holder reads or writes them, and the lock's release and acquire order one holder's
     * accesses before the next one's.
     */
    static final long[] MEMORY_SLOTS = new long[SLOTS * MEMORY_STRIDE];
    /** The last ordered (non-relaxed) event of the program, packed like a slot; through {@link #LAST_ORDERED}. */
    @SuppressWarnings("unused")
    private static long lastOrdered;
    /** TO: the next sequence number. Through {@link #SEQUENCE}. */
    @SuppressWarnings("unused")
    private static long sequence;
    /** TO: added to the sequence by {@link #freeze}; a number at least this was drawn after the cut. */
    private static final long FROZEN = 1L << 62;

    /**
     * Records a monitor acquisition (or re-acquisition after a wait) on {@code slot}, with the
     * monitor held, into the open event: a write of the monitor's object, taking the slot's lock
     * for the record ({@link #recordMemory}). Not inlined, nor are the other record methods:
     * their event writing would be compiled into every entry point that records
     * (docs/ARCHITECTURE.md, "Compiled code").
     */
    @DontInline
    static void recordMonitor(RecordEv ev, ThreadCtx ctx, int slot, Order order) {
        if (alone(ctx, order)) {
            recordRelaxed(ev, ctx);
            return;
        }
        if (order == Order.TO) {
            drawTurn(ev, ctx);
            if (RaceWatch.on()) {
                // The turn covers what the monitor's previous holder did before its last turn;
                // the holder, taken from the slot as under RTO, covers what it did in the block.
                SlotLocks.MEMORY.lock(ctx, slot);
                RaceWatch.acquired(ctx, slot);
                SlotLocks.MEMORY.unlock(slot);
            }
            return;
        }
        SlotLocks.MEMORY.lock(ctx, slot);
        recordMemory(ev, ctx, slot, false, true);
        if (RaceWatch.on()) {
            RaceWatch.acquired(ctx, slot);
        }
        SlotLocks.MEMORY.unlock(slot);
    }

    /**
     * Records an event nothing can interleave with: of a thread {@link SyncOrder#alone}, or a read that
     * {@link UnlockedReads#begin} let go ahead without its slot's lock, relaxed as
     * {@link #recordMemory} would have found it. Relaxed, counted like any other event of the thread.
     */
    static void recordRelaxed(RecordEv ev, ThreadCtx ctx) {
        ++ctx.syncCount;
        ev.header(true);
    }

    /**
     * Records a synchronization action ({@link SyncActions}) on {@code slot}, whose lock in
     * {@link SlotLocks#MEMORY} the caller holds across the action and this record.
     */
    @DontInline
    static void recordAction(RecordEv ev, ThreadCtx ctx, int slot, Order order, boolean read) {
        if (order == Order.TO) {
            drawTurn(ev, ctx);
        } else {
            recordMemory(ev, ctx, slot, read, false);
        }
    }

    /**
     * Records an ordered operation on a thread or the thread registry (a start, an interrupt, a
     * park's return, an unpark) on {@code slot}, whose lock in {@link SlotLocks#OPERATIONS} the
     * caller holds across the operation and this record. RTO: the slot's last owner relaxes.
     */
    @DontInline
    static void recordOperation(RecordEv ev, ThreadCtx ctx, int slot, Order order) {
        if (order == Order.TO) {
            drawTurn(ev, ctx);
            return;
        }
        long mine = pack(ctx.index, ++ctx.syncCount);
        long prev = (long) LONGS.getAndSet(OPERATION_SLOTS, slot, mine);
        if (prev != 0 && owner(prev) == ctx.index) {
            ev.header(true);
        } else {
            ordered(ev, ctx, mine, prev, false);
        }
    }

    /** TO: takes the next number of the global sequence for this event and logs it. */
    private static void drawTurn(RecordEv ev, ThreadCtx ctx) {
        ++ctx.syncCount;
        // The exit's cut reads lastTurn after freezing the sequence. drawing is set before
        // the draw, a volatile read-modify-write that precedes the freeze's in the sequence's
        // order, so the cut sees it, and waits for the release that publishes the turn. A
        // draw after the freeze leaves lastTurn alone: the event before may be unflushed.
        DRAWING.setOpaque(ctx, true);
        long turn = (long) SEQUENCE.getAndAdd(1L);
        if (turn >= FROZEN) {
            DRAWING.setRelease(ctx, false);
            Waiter.awaitHalt(); // drawn after the cut: no stream could hold this event
        }
        ctx.lastTurnEvent = ctx.eventNo;
        ctx.lastTurn = turn;
        DRAWING.setRelease(ctx, false);
        if (RaceWatch.on()) {
            RaceWatch.turn(ctx);
        }
        ev.header(false);
        ev.j(TURN);
        ev.j(turn);
    }

    /**
     * RTO: records a read or a write of the memory slot {@code slot}, whose lock the caller
     * holds. Reads do not conflict with reads: a read is ordered after the slot's last write, and
     * a write after every read since that write (or, if none, after the write itself). Replay
     * then gives each read the write it read, and no write overtakes a read of the value before
     * it. An event its own thread's earlier ones already order is relaxed: a read by a thread
     * that read since the last write or made it, a write by the only thread that read since, or
     * by the last writer when no one read. A read that finds the slot's reader list full is
     * recorded as a write, which is only more order. {@code acquisition}: a monitor's, which
     * covers more of the previous holder's work for {@link RaceWatch#saw}.
     */
    private static void recordMemory(RecordEv ev, ThreadCtx ctx, int slot, boolean read, boolean acquisition) {
        int me = ctx.index;
        long mine = pack(me, ++ctx.syncCount);
        int writeAt = slot * MEMORY_STRIDE + 1;
        int first = writeAt + 1;
        int end = first + ThreadCtx.MAX_EDGES;
        long write = MEMORY_SLOTS[writeAt];
        int readers = first;
        int self = -1;
        while (readers < end && MEMORY_SLOTS[readers] != 0) {
            if (owner(MEMORY_SLOTS[readers]) == me) {
                self = readers;
            }
            readers++;
        }
        int others = readers - first - (self >= 0 ? 1 : 0);
        if (read && (self >= 0 || readers < end)) {
            MEMORY_SLOTS[self >= 0 ? self : readers] = mine;
            UnlockedReads.registered(ctx, slot, write);
        } else if (others > 0) {
            // Volatile: the store half of the handshake with the other readers' unlocked reads.
            LONGS.setVolatile(MEMORY_SLOTS, writeAt, mine);
            orderedAfterReads(ev, ctx, mine, slot, first, readers, others, acquisition);
            return;
        } else {
            MEMORY_SLOTS[writeAt] = mine;
            Arrays.fill(MEMORY_SLOTS, first, readers, 0L);
        }
        // Here a read that registered, or a write no other thread read before: relaxed if this
        // thread read since the last write or made it, or if no write came yet for a read to follow.
        if (self >= 0 || (write != 0 ? owner(write) == me : readers > first)) {
            ev.header(true);
        } else {
            ordered(ev, ctx, mine, write, acquisition);
        }
    }

    /**
     * Logs a write on {@code slot} ordered after the reads in {@code MEMORY_SLOTS[from, to)} but
     * its own thread's, {@code others} of them, and clears them; each reader's count is that of
     * its last read, unlocked ones included ({@link UnlockedReads#orderAfter}). Out of line, like
     * {@link #ordered}: the paths that log are rare, and compiled into {@link #recordMemory} they
     * made it a method C2 took hundreds of milliseconds to compile, which ran slowly all that while.
     */
    @DontInline
    private static void orderedAfterReads(RecordEv ev, ThreadCtx ctx, long mine, int slot, int from, int to, int others,
                                          boolean acquisition) {
        ev.header(false);
        if (others == 1) {
            ev.j(EDGE);
        } else {
            ev.j(EDGES);
            ev.j(others);
        }
        for (int i = from; i < to; i++) {
            long r = MEMORY_SLOTS[i];
            MEMORY_SLOTS[i] = 0L;
            if (owner(r) != owner(mine)) {
                long count = UnlockedReads.orderAfter(owner(r), r & COUNT_MASK, slot);
                ev.j(owner(r));
                ev.j(count);
                RaceWatch.saw(ctx, owner(r), count, acquisition);
            }
        }
        // Only now may a first use order after this event: the readers' counts just taken must
        // name none of their events that does, or replay would wait in a cycle.
        LAST_ORDERED.getAndSet(mine);
    }

    /**
     * Logs an ordered event after {@code prev}, the slot's previous event, or if there is none
     * (0), after the last ordered event of the program (first use).
     */
    @DontInline
    private static void ordered(RecordEv ev, ThreadCtx ctx, long mine, long prev, boolean acquisition) {
        long before = (long) LAST_ORDERED.getAndSet(mine);
        long edge = prev != 0 ? prev : before;
        if (edge != 0) {
            RaceWatch.saw(ctx, owner(edge), edge & COUNT_MASK, acquisition);
        }
        ev.header(false);
        ev.j(prev != 0 ? EDGE : FIRST);
        ev.j(edge == 0 ? -1 : owner(edge));
        ev.j(edge & COUNT_MASK);
    }

    /** The last write of memory slot {@code slot} (volatile: the load half of {@link UnlockedReads}' handshake). */
    static long lastWrite(int slot) {
        return (long) LONGS.getVolatile(MEMORY_SLOTS, slot * MEMORY_STRIDE + 1);
    }

    /**
     * TO, at exit, before the streams are closed: no turn is drawn from here on, so the
     * turns drawn are exactly those below the sequence's value now. A thread drawing one later
     * waits for the JVM's halt, holding what it acquired.
     */
    public static void freeze() {
        SEQUENCE.getAndAdd(FROZEN);
    }

    /**
     * TO, after {@link #freeze} and after every stream is closed: the turns drawn by
     * events no stream holds. Each thread adds at most its last turn: an event that drew an
     * earlier one and was not flushed was committed after its stream closed, so after the
     * freeze, and the thread's next draw was refused. Replay passes over these turns
     * ({@link ReplayOrder#skipCutTurns}); without them, an event ordered after one of them would wait for it
     * forever.
     */
    public static long[] cutTurns(List<ThreadCtx> threads) {
        long[] cut = new long[threads.size()];
        int n = 0;
        for (ThreadCtx ctx : threads) {
            while ((boolean) DRAWING.getAcquire(ctx)) {
                Thread.onSpinWait();
            }
            long turn = ctx.lastTurn;
            if (turn >= 0 && ctx.ev != null && ctx.lastTurnEvent >= ((RecordEv) ctx.ev).log.flushedEvents()) {
                cut[n++] = turn;
            }
        }
        cut = Arrays.copyOf(cut, n);
        Arrays.sort(cut);
        return cut;
    }
}
