package dev.reprise.agent.runtime;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Arrays;
import java.util.List;

import dev.reprise.core.config.Order;
import jdk.internal.vm.annotation.DontInline;

/**
 * Orders synchronization acquisitions (paper 000, Sections 2-4).
 *
 * <p>Every recorded thread has an index (its creation order, itself ordered) and counts the
 * synchronization events it completed. Resources (monitors, and the per-resource locks of
 * non-monitor operations) map to one of {@value #SLOTS} slots; a slot remembers the last event
 * that acquired it as (owner index, owner's count), packed in one long.
 *
 * <p>RTO: recording, with the resource held, swaps this event into the slot. If the slot's last
 * owner is this thread the event is RELAXED: nothing is logged and replay does not wait. Otherwise
 * the event logs an edge to the previous event on the slot (an ownership change), or, on first
 * use, to the last ordered event of the whole program (Algorithm 1, line 7). Replay waits until
 * the edge's thread has completed that many events. Slots are coarse: colliding resources share
 * one, and since the slot itself is the resource, relaxing requires this thread to be the slot's
 * last owner, which no acquisition of another resource on the slot can fake (DESIGN, rule 1).
 *
 * <p>TO: each acquisition takes the next number of one global sequence while holding the
 * resource; replay waits for its number's turn. The exit cuts the recording while threads run:
 * the numbers of events it cut off are listed ({@link #cutTurns}) and replay passes over them.
 *
 * <p>Atomicity (DESIGN, rule 2): callers hold the resource across {@link #recordAcquired}, so no
 * other acquisition of it can slip between the operation and its record.
 *
 * <p>The shared counters are plain arrays and fields reached through VarHandles, not
 * {@code java.util.concurrent.atomic} classes, whose own accesses Reprise brackets as the
 * program's synchronization actions.
 */
public final class SyncOrder {
    static final int SLOTS = 4096;
    static final int MAX_THREADS = 1 << 16;
    private static final int COUNT_BITS = 44;
    private static final long COUNT_MASK = (1L << COUNT_BITS) - 1;
    private static final int EDGE = 0;
    private static final int FIRST = 1;
    private static final int TURN = 2;

    private static final VarHandle LONGS = MethodHandles.arrayElementVarHandle(long[].class);
    private static final VarHandle LAST_ORDERED = staticLong("lastOrdered");
    private static final VarHandle SEQUENCE = staticLong("sequence");
    private static final VarHandle DRAWING;

    static {
        try {
            DRAWING = MethodHandles.lookup().findVarHandle(ThreadCtx.class, "drawing", boolean.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** Per slot, its last acquisition, packed; volatile accesses through {@link #LONGS}. */
    private static final long[] SLOT = new long[SLOTS];
    /** The last ordered (non-relaxed) event of the program, packed like a slot; through {@link #LAST_ORDERED}. */
    @SuppressWarnings("unused")
    private static long lastOrdered;
    /** TO: the next sequence number; replay: the number whose turn it is. Through {@link #SEQUENCE}. */
    @SuppressWarnings("unused")
    private static long sequence;
    /** Replay: how many synchronization events each thread has completed; volatile accesses through {@link #LONGS}. */
    private static final long[] PROGRESS = new long[MAX_THREADS];
    /** Replay: the progress of a thread whose stream the exit cut off, once it has replayed all of it. */
    private static final long ALL = COUNT_MASK + 1;
    /** Record, TO: added to the sequence by {@link #freeze}; a number at least this was drawn after the cut. */
    private static final long FROZEN = 1L << 62;
    /** Replay, TO: the turns whose events the recording's exit cut off, sorted; the sequence passes over them. */
    private static long[] cutTurns = new long[0];
    private SyncOrder() {
    }

    private static VarHandle staticLong(String name) {
        try {
            return MethodHandles.lookup().findStaticVarHandle(SyncOrder.class, name, long.class);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Replay: the events all threads completed, a number that grows while the replay progresses. */
    static long totalProgress() {
        long sum = (long) SEQUENCE.getVolatile();
        for (int i = 0, n = Threads.indexes(); i < n; i++) {
            sum += progress(i);
        }
        return sum;
    }

    /** Replay: how many synchronization events thread {@code index} has completed. */
    static long progress(int index) {
        return (long) LONGS.getVolatile(PROGRESS, index);
    }

    /**
     * The slot of a resource, by the JVM's own identity hash. Hashing gives the object a JVM hash
     * the program could later see, so an object the program may hash gets its deterministic hash
     * first ({@link IdentityHashes#beforeJvmHash}).
     */
    static int slotOf(ThreadCtx ctx, Object resource) {
        // Runs of actions on one object (a table's bins, a lock's state and queue) are common:
        // the thread remembers its last resource, whose slot cannot change.
        if (resource == ctx.lastResource) {
            return ctx.lastSlot;
        }
        IdentityHashes.beforeJvmHash(ctx, resource);
        int slot = spread(System.identityHashCode(resource));
        ctx.lastResource = resource;
        ctx.lastSlot = slot;
        return slot;
    }

    /** The slot of a resource named by a hash of its name (a static field). */
    static int slotOfKey(int key) {
        return spread(key);
    }

    private static int spread(int h) {
        h ^= h >>> 16;
        return (h * 0x9E3779B1) >>> (32 - 12);
    }

    private static long pack(int index, long count) {
        return ((long) (index + 1) << COUNT_BITS) | count;
    }

    /**
     * Records an acquisition of {@code slot}, with the resource held, into the open event, whose
     * header this writes: as relaxed, or followed by the ordering. Not inlined: its event
     * writing would be compiled into every entry point that records (docs/ARCHITECTURE.md,
     * "Compiled code").
     */
    @DontInline
    static void recordAcquired(Ev ev, ThreadCtx ctx, int slot, Order order) {
        long count = ++ctx.syncCount;
        if (order == Order.TO) {
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
            ev.header(false);
            ev.j(TURN);
            ev.j(turn);
            return;
        }
        long mine = pack(ctx.index, count);
        long prev = (long) LONGS.getAndSet(SLOT, slot, mine);
        if (prev != 0 && owner(prev) == ctx.index) {
            ev.header(true);
            return;
        }
        long before = (long) LAST_ORDERED.getAndSet(mine);
        long edge = prev != 0 ? prev : before;
        ev.header(false);
        ev.j(prev != 0 ? EDGE : FIRST);
        ev.j(edge == 0 ? -1 : owner(edge));
        ev.j(edge & COUNT_MASK);
    }

    private static int owner(long packed) {
        return (int) (packed >>> COUNT_BITS) - 1;
    }

    /**
     * Record, TO, at exit, before the streams are closed: no turn is drawn from here on, so the
     * turns drawn are exactly those below the sequence's value now. A thread drawing one later
     * waits for the JVM's halt, holding what it acquired.
     */
    static void freeze() {
        SEQUENCE.getAndAdd(FROZEN);
    }

    /**
     * Record, TO, after {@link #freeze} and after every stream is closed: the turns drawn by
     * events no stream holds. Each thread adds at most its last turn: an event that drew an
     * earlier one and was not flushed was committed after its stream closed, so after the
     * freeze, and the thread's next draw was refused. Replay passes over these turns
     * ({@link #skipCutTurns}); without them, an event ordered after one of them would wait for it
     * forever.
     */
    static long[] cutTurns(List<ThreadCtx> threads) {
        long[] cut = new long[threads.size()];
        int n = 0;
        for (ThreadCtx ctx : threads) {
            while ((boolean) DRAWING.getAcquire(ctx)) {
                Thread.onSpinWait();
            }
            long turn = ctx.lastTurn;
            if (turn >= 0 && ctx.log != null && ctx.lastTurnEvent >= ctx.log.flushedEvents()) {
                cut[n++] = turn;
            }
        }
        cut = Arrays.copyOf(cut, n);
        Arrays.sort(cut);
        return cut;
    }

    /** Replay, TO, before any event: the recording's {@link #cutTurns}. */
    static void skipCutTurns(long[] turns) {
        cutTurns = turns.clone();
        SEQUENCE.setVolatile(nextTurn(0));
    }

    private static long nextTurn(long turn) {
        long[] cut = cutTurns;
        while (cut.length > 0 && Arrays.binarySearch(cut, turn) >= 0) {
            turn++;
        }
        return turn;
    }

    /**
     * Replay: {@code ctx} has replayed its whole stream, which the exit cut off while the thread
     * still ran. RTO edges may name its events that no stream holds (an event open at the cut,
     * or drawn after it); they all came after what it replayed, and it does nothing more.
     */
    static void cutOff(ThreadCtx ctx) {
        if (ctx.index >= 0) {
            LONGS.setVolatile(PROGRESS, ctx.index, ALL);
            Waiter.progressed();
        }
    }

    /** Replay: reads the event's ordering into {@code ctx}; {@link #ready} then says when it may proceed. */
    static void readTurn(Ev ev, ThreadCtx ctx, boolean relaxed) {
        ctx.awaitSeq = -1;
        ctx.awaitThread = -1;
        if (relaxed) {
            return;
        }
        int kind = (int) ev.j(0);
        if (kind == TURN) {
            ctx.awaitSeq = ev.j(0);
            return;
        }
        ctx.awaitThread = (int) ev.j(0);
        ctx.awaitCount = ev.j(0);
    }

    /** Replay: whether the event read by {@link #readTurn} may proceed now. */
    static boolean ready(ThreadCtx ctx) {
        if (ctx.awaitSeq >= 0) {
            return (long) SEQUENCE.getVolatile() == ctx.awaitSeq;
        }
        return ctx.awaitThread < 0 || progress(ctx.awaitThread) >= ctx.awaitCount;
    }

    /** Replay, before acquiring: reads the event's ordering and waits until it may proceed. */
    static void awaitTurn(Ev ev, ThreadCtx ctx, boolean relaxed) {
        readTurn(ev, ctx, relaxed);
        Waiter.await(ctx);
    }

    /** Replay, after acquiring: publishes this thread's progress (and passes the TO turn on). */
    static void completed(ThreadCtx ctx) {
        LONGS.setVolatile(PROGRESS, ctx.index, ++ctx.syncCount);
        if (ctx.awaitSeq >= 0) {
            SEQUENCE.setVolatile(nextTurn(ctx.awaitSeq + 1));
            ctx.awaitSeq = -1;
        }
        ctx.awaitThread = -1;
        Waiter.progressed();
    }
}
