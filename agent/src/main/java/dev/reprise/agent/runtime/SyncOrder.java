package dev.reprise.agent.runtime;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Arrays;
import java.util.List;

import dev.reprise.core.config.Order;
import jdk.internal.vm.annotation.DontInline;

/**
 * Orders synchronization events (docs/decisions/0001-relaxed-total-order.md states rules 1 and 2).
 *
 * <p>Every recorded thread has an index (its creation order, itself ordered) and counts the
 * synchronization events it completed. An event is named by (thread index, count), packed in
 * one long. Resources map to one of {@value #SLOTS} slots, in two tables:
 * <ul>
 * <li>memory ({@link #recordMemory}): objects whose monitors or fields the program synchronizes
 * on. A monitor acquisition, and a synchronization action that may change a field, is a write;
 * a field's plain or volatile read is a read. The slot remembers its last write and the reads
 * since.
 * <li>operations ({@link #recordOperation}): threads and the thread registry, which starts,
 * interrupts, parks and unparks order. The slot remembers its last event.
 * </ul>
 *
 * <p>RTO, recording: an event that its own thread's earlier events already order after what it
 * conflicts with (the slot's last owner, for operations) is RELAXED: nothing is logged and replay
 * does not wait. Otherwise the event logs edges to the events it must follow, or, on first use
 * of the slot, to the last ordered event of the whole program. Replay waits
 * until each edge's thread has completed that many events. Slots are coarse: colliding
 * resources share one, and since the slot itself is the resource, relaxing requires this
 * thread's own events to order it on the slot, which no event on another resource of the slot
 * can fake (rule 1).
 *
 * <p>TO: each event takes the next number of one global sequence while holding the resource;
 * replay waits for its number's turn. The exit cuts the recording while threads run: the
 * numbers of events it cut off are listed ({@link #cutTurns}) and replay passes over them.
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
public final class SyncOrder {
    private static final int SLOT_BITS = 12;
    static final int SLOTS = 1 << SLOT_BITS;
    /** Bits of a slot taken from a hash's {@link #PARTITION_SHIFT partition bits}: eight partitions of the slots. */
    private static final int PARTITION_BITS = 3;
    /**
     * Where a hash holds its slot's partition: bits 26-28, which hash tables reach only by folding
     * the high half into the low one ({@code HashMap}: bits 10-12, random again), or in tables of
     * 2^26 buckets and more.
     */
    private static final int PARTITION_SHIFT = 26;
    private static final int PARTITION_MASK = (1 << PARTITION_BITS) - 1;
    static final int MAX_THREADS = 1 << 16;
    private static final int COUNT_BITS = 44;
    private static final long COUNT_MASK = (1L << COUNT_BITS) - 1;
    private static final int EDGE = 0;
    private static final int FIRST = 1;
    private static final int TURN = 2;
    /** An event ordered after several others: their number, then each as (thread, count). */
    private static final int EDGES = 3;
    /** Longs per memory slot, a cache line: its lock, its last write, then up to {@code MAX_EDGES} reads since. */
    static final int MEMORY_STRIDE = 8;
    /** The most edges one event can log: a write's, to each other reader since the last write. */
    static final int MAX_EDGES = MEMORY_STRIDE - 2;
    /** The slot of an event of the main thread {@link #alone}, which orders against nothing and takes no lock: past every slot. */
    static final int NO_SLOT = SLOTS;
    /** The slot of an event {@link #take} took: no event is open. */
    static final int TAKEN = SLOTS + 1;
    /** The slot of a read made without its slot's lock ({@link UnlockedReads}). */
    static final int UNLOCKED = SLOTS + 2;

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

    /** Per operation slot, its last event, packed; volatile accesses through {@link #LONGS}. */
    private static final long[] OPERATION_SLOTS = new long[SLOTS];
    /**
     * Per memory slot, {@value #MEMORY_STRIDE} longs: the slot's lock ({@link SlotLocks#MEMORY}),
     * the last write, packed (0: none yet), then the last read of each thread that read since it,
     * packed, filled from the front (0 ends the list). Plain accesses to all but the lock: only
     * its holder reads or writes them, and the lock's release and acquire order one holder's
     * accesses before the next one's.
     */
    static final long[] MEMORY_SLOTS = new long[SLOTS * MEMORY_STRIDE];
    /** The last ordered (non-relaxed) event of the program, packed like a slot; through {@link #LAST_ORDERED}. */
    @SuppressWarnings("unused")
    private static long lastOrdered;
    /** TO: the next sequence number; replay: the number whose turn it is. Through {@link #SEQUENCE}. */
    @SuppressWarnings("unused")
    private static long sequence;
    /**
     * Replay: how many synchronization events each thread has completed; volatile accesses
     * through {@link #LONGS}. In a class of its own, made when a replay first reaches it: a
     * recording never does, and half a megabyte of zeros would be resident in it for nothing.
     */
    private static final class Progress {
        static final long[] BY_THREAD = new long[MAX_THREADS];
    }
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
        for (int i = Threads.initFloor(); i < MAX_THREADS; i++) {
            sum += progress(i);
        }
        return sum;
    }

    /** Replay: how many synchronization events thread {@code index} has completed. */
    static long progress(int index) {
        return (long) LONGS.getVolatile(Progress.BY_THREAD, index);
    }

    /**
     * The slot of a resource, by the JVM's own identity hash. Hashing gives the object a JVM hash
     * the program could later see, so an object the program may hash gets its deterministic hash
     * first ({@link IdentityHashes#beforeJvmHash}).
     */
    static int slotOf(ThreadCtx ctx, Object resource) {
        // A thread's actions cycle over a few objects (a map's table and the bin it locks, an
        // adder and its cells), and an object's slot cannot change: the thread remembers its last
        // four. A hit spares the hash, which for a locked or inflated object is a call into the
        // JVM's runtime, and beforeJvmHash, which the miss that filled the entry already ran.
        // Lookups happen at the same points when recording and replaying, so hits and misses do too.
        if (resource == ctx.resource0) {
            return ctx.slot0;
        }
        if (resource == ctx.resource1) {
            return ctx.slot1;
        }
        if (resource == ctx.resource2) {
            return ctx.slot2;
        }
        if (resource == ctx.resource3) {
            return ctx.slot3;
        }
        return slotOfNew(ctx, resource);
    }

    /** A resource not among the thread's last four: hashed, and remembered first. */
    private static int slotOfNew(ThreadCtx ctx, Object resource) {
        IdentityHashes.beforeJvmHash(ctx, resource);
        int slot = spread(System.identityHashCode(resource));
        ctx.resource3 = ctx.resource2;
        ctx.slot3 = ctx.slot2;
        ctx.resource2 = ctx.resource1;
        ctx.slot2 = ctx.slot1;
        ctx.resource1 = ctx.resource0;
        ctx.slot1 = ctx.slot0;
        ctx.resource0 = resource;
        ctx.slot0 = slot;
        return slot;
    }

    /** The slot of a resource named by a hash of its name (a static field). */
    static int slotOfKey(int key) {
        return spread(key);
    }

    /**
     * A slot in the partition the hash names, spread within it by all of its bits. A JVM hash names
     * a random partition; a hash Reprise assigns names its thread's ({@link #partitioned}).
     */
    private static int spread(int h) {
        int within = (h * 0x9E3779B1) >>> (32 - SLOT_BITS + PARTITION_BITS);
        return ((h >>> PARTITION_SHIFT) & PARTITION_MASK) << (SLOT_BITS - PARTITION_BITS) | within;
    }

    /**
     * {@code hash} (31 bits, not zero) with the slot partition of thread {@code index}. The
     * identity hashes a thread assigns ({@code IdentityHashes}) put the objects it synchronizes on
     * first, most of them its own new objects, in slots of its own: there the action finds the
     * slot last used by the same thread and is relaxed, where a slot last used by another thread's
     * objects orders it after them. A recording of h2 (two client threads) logged 170 thousand
     * ordered actions without it, 46 thousand with it, most of them volatile writes on pages just
     * cloned ({@code Page.copy}).
     */
    static int partitioned(int hash, int index) {
        int h = hash & ~(PARTITION_MASK << PARTITION_SHIFT) | (index & PARTITION_MASK) << PARTITION_SHIFT;
        return h != 0 ? h : 1;
    }

    private static long pack(int index, long count) {
        return ((long) (index + 1) << COUNT_BITS) | count;
    }

    /**
     * Records a monitor acquisition (or re-acquisition after a wait) on {@code slot}, with the
     * monitor held, into the open event: a write of the monitor's object, taking the slot's lock
     * for the record ({@link #recordMemory}). Not inlined, nor are the other record methods:
     * their event writing would be compiled into every entry point that records
     * (docs/ARCHITECTURE.md, "Compiled code").
     */
    @DontInline
    static void recordMonitor(Ev ev, ThreadCtx ctx, int slot, Order order) {
        if (alone(ctx, order)) {
            recordRelaxed(ev, ctx);
            return;
        }
        if (order == Order.TO) {
            drawTurn(ev, ctx);
            return;
        }
        SlotLocks.MEMORY.lock(ctx, slot);
        recordMemory(ev, ctx, slot, false, true);
        SlotLocks.MEMORY.unlock(slot);
    }

    /**
     * RTO, recording: whether {@code ctx}'s thread runs alone: the main thread, before any other
     * recorded thread started ({@link Threads#othersStarted}; a shutdown hook registered but not
     * started does not count). Nothing can interleave with its events then, so each is relaxed
     * ({@link #recordRelaxed}), without taking its slot's lock or leaving a trace in the slot.
     * Every thread started later begins after the event that started it, which replay performs
     * in the main thread's order, after everything the main thread did alone. A later event on a
     * slot used alone finds no trace there: a first use, ordered after the program's last ordered
     * event, or a read relaxed after other reads of the value main left. Either follows all the
     * alone events, as every thread's first event does. A single-threaded program records every
     * synchronization event so. TO keeps its one sequence: every event takes a turn.
     */
    static boolean alone(ThreadCtx ctx, Order order) {
        return ctx.index == 0 && order == Order.RTO && !Threads.othersStarted();
    }

    /**
     * Records an event nothing can interleave with: of a thread {@link #alone}, or a read that
     * {@link UnlockedReads#begin} let go ahead without its slot's lock, relaxed as
     * {@link #recordMemory} would have found it. Relaxed, counted like any other event of the thread.
     */
    static void recordRelaxed(Ev ev, ThreadCtx ctx) {
        ++ctx.syncCount;
        ev.header(true);
    }

    /**
     * Record and replay: the slot of an event on {@code resource}, or {@link #NO_SLOT} for the
     * main thread {@link #alone} under the recording's order, whose events need none. Decided the
     * same way at the same event in a recording and its replays (the start that ends the alone
     * phase is main's own event), so a lookup, which may give the resource its identity hash
     * ({@link #slotOf}), happens in both modes or in neither.
     */
    static int eventSlot(ThreadCtx ctx, Object resource) {
        return aloneNow(ctx) ? NO_SLOT : slotOf(ctx, resource);
    }

    /** Like {@link #eventSlot}, for a static field named by {@code key}. */
    static int eventSlotOfKey(ThreadCtx ctx, int key) {
        return aloneNow(ctx) ? NO_SLOT : slotOfKey(key);
    }

    /** {@link #alone} under the recording's order; the index test first spares other threads the lookup. */
    private static boolean aloneNow(ThreadCtx ctx) {
        return ctx.index == 0 && alone(ctx, Session.current().config().order());
    }

    /**
     * Takes the event about to begin on {@code slot} ({@link #eventSlot}) without opening it, if
     * it can: the main thread alone, in both modes, or any thread replaying inside a run of
     * relaxed events, which wait for nothing and code no value ({@link Ev#takeRelaxed}). The
     * caller then calls {@link #completedTaken} after the operation. Not under chaos, which delays
     * at every event opened.
     */
    static boolean take(ThreadCtx ctx, int slot) {
        return ctx.chaos == null && (slot == NO_SLOT || !ctx.ev.recording()) && ctx.ev.takeRelaxed();
    }

    /**
     * After an event {@link #take} took: counts it, replaying publishes the progress, and releases
     * the thread's claim. Taken events are relaxed, so the order is RTO.
     */
    static void completedTaken(ThreadCtx ctx) {
        if (ctx.ev.recording()) {
            ++ctx.syncCount;
        } else if (ctx.index == 0 && !Threads.othersStarted()) {
            // No other recorded thread exists to wait for this progress, so none is parked to
            // wake: a release suffices where completed() needs the volatile store that pairs
            // with a parked waiter's count. A thread started later reads it after its start.
            LONGS.setRelease(Progress.BY_THREAD, 0, ++ctx.syncCount);
        } else {
            completed(ctx);
        }
        ctx.depth = 0;
    }

    /**
     * Records a synchronization action ({@link SyncActions}) on {@code slot}, whose lock in
     * {@link SlotLocks#MEMORY} the caller holds across the action and this record.
     */
    @DontInline
    static void recordAction(Ev ev, ThreadCtx ctx, int slot, Order order, boolean read) {
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
    static void recordOperation(Ev ev, ThreadCtx ctx, int slot, Order order) {
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
    private static void drawTurn(Ev ev, ThreadCtx ctx) {
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
    private static void recordMemory(Ev ev, ThreadCtx ctx, int slot, boolean read, boolean acquisition) {
        int me = ctx.index;
        long mine = pack(me, ++ctx.syncCount);
        int writeAt = slot * MEMORY_STRIDE + 1;
        int first = writeAt + 1;
        int end = first + MAX_EDGES;
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
    private static void orderedAfterReads(Ev ev, ThreadCtx ctx, long mine, int slot, int from, int to, int others,
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
    private static void ordered(Ev ev, ThreadCtx ctx, long mine, long prev, boolean acquisition) {
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
            LONGS.setVolatile(Progress.BY_THREAD, ctx.index, ALL);
            Waiter.progressed();
        }
    }

    /** Replay: reads the event's ordering into {@code ctx}; {@link #ready} then says when it may proceed. */
    static void readTurn(Ev ev, ThreadCtx ctx, boolean relaxed) {
        ctx.awaitSeq = -1;
        ctx.awaitEdges = 0;
        if (relaxed) {
            return;
        }
        int kind = (int) ev.j(0);
        if (kind == TURN) {
            ctx.awaitSeq = ev.j(0);
            return;
        }
        long edges = kind == EDGES ? ev.j(0) : 1;
        if (edges < 1 || edges > MAX_EDGES) {
            Divergence.mismatch("synchronization order", "an event is ordered after " + edges + " others; at most " + MAX_EDGES + " can be");
        }
        for (int i = 0; i < edges; i++) {
            ctx.awaitThreads[i] = (int) ev.j(0);
            ctx.awaitCounts[i] = ev.j(0);
        }
        ctx.awaitEdges = (int) edges;
    }

    /**
     * Replay: whether the event read by {@link #readTurn} may proceed now. Other threads ask it
     * about a parked one too ({@link Waiter#progressed}), so it changes nothing.
     */
    static boolean ready(ThreadCtx ctx) {
        if (ctx.awaitSeq >= 0) {
            return (long) SEQUENCE.getVolatile() == ctx.awaitSeq;
        }
        return unmetEdge(ctx) < 0;
    }

    /** Replay: the first of the edges read by {@link #readTurn} whose thread has not reached its count, or -1. */
    static int unmetEdge(ThreadCtx ctx) {
        for (int i = 0; i < ctx.awaitEdges; i++) {
            int thread = ctx.awaitThreads[i];
            if (thread >= 0 && progress(thread) < ctx.awaitCounts[i]) {
                return i;
            }
        }
        return -1;
    }

    /** Replay, before acquiring: reads the event's ordering and waits until it may proceed. */
    static void awaitTurn(Ev ev, ThreadCtx ctx, boolean relaxed) {
        readTurn(ev, ctx, relaxed);
        Waiter.await(ctx);
    }

    /** Replay, after acquiring: publishes this thread's progress (and passes the TO turn on). */
    static void completed(ThreadCtx ctx) {
        LONGS.setVolatile(Progress.BY_THREAD, ctx.index, ++ctx.syncCount);
        if (ctx.awaitSeq >= 0) {
            SEQUENCE.setVolatile(nextTurn(ctx.awaitSeq + 1));
            ctx.awaitSeq = -1;
        }
        ctx.awaitEdges = 0;
        Waiter.progressed();
    }
}
