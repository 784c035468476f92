package dev.reprise.agent.runtime.ordering;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

import dev.reprise.agent.runtime.events.Ev;
import dev.reprise.agent.runtime.events.Session;
import dev.reprise.agent.runtime.events.ThreadCtx;
import dev.reprise.agent.runtime.identity.HashPartitions;
import dev.reprise.agent.runtime.identity.IdentityHashes;
import dev.reprise.core.config.Order;

/**
 * Orders synchronization events (docs/decisions/0001-relaxed-total-order.md states rules 1 and 2).
 *
 * <p>This class holds what both roles share: slots, the packing of an event's name, and whether an
 * event needs opening at all. {@link RecordOrder} decides and logs each event's order;
 * {@link ReplayOrder} reads it back and makes the thread wait for it.
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
 * numbers of events it cut off are listed ({@link RecordOrder#cutTurns}) and replay passes over them.
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
    public static final int MAX_THREADS = 1 << 16;
    private static final int COUNT_BITS = 44;
    static final long COUNT_MASK = (1L << COUNT_BITS) - 1;
    /** How an ordered event's ordering is logged: after one event of the slot, ... */
    static final int EDGE = 0;
    /** ... after the program's last ordered event (a slot's first use), ... */
    static final int FIRST = 1;
    /** ... at a turn of the TO sequence, ... */
    static final int TURN = 2;
    /** ... or after several others: their number, then each as (thread, count). */
    static final int EDGES = 3;
    /** Longs per memory slot, a cache line: its lock, its last write, then up to {@link ThreadCtx#MAX_EDGES} reads since. */
    static final int MEMORY_STRIDE = ThreadCtx.MAX_EDGES + 2;
    /** The slot of an event of the main thread {@link #alone}, which orders against nothing and takes no lock: past every slot. */
    static final int NO_SLOT = SLOTS;
    /** The slot of an event {@link #take} took: no event is open. */
    static final int TAKEN = SLOTS + 1;
    /** The slot of a read made without its slot's lock ({@link UnlockedReads}). */
    static final int UNLOCKED = SLOTS + 2;

    /** Volatile and ordered accesses to the elements of the tables of both halves. */
    static final VarHandle LONGS = MethodHandles.arrayElementVarHandle(long[].class);

    private SyncOrder() {
    }

    /** A handle on static {@code long} field {@code name} of {@code owner}, one of the halves. */
    static VarHandle staticLong(MethodHandles.Lookup owner, String name) {
        try {
            return owner.findStaticVarHandle(owner.lookupClass(), name, long.class);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
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
     * a random partition; a hash Reprise assigns names its thread's ({@link HashPartitions#partitioned}).
     */
    private static int spread(int h) {
        int within = (h * 0x9E3779B1) >>> (32 - SLOT_BITS + HashPartitions.BITS);
        return ((h >>> HashPartitions.SHIFT) & HashPartitions.MASK) << (SLOT_BITS - HashPartitions.BITS) | within;
    }

    /** An event's name, (thread index, count), in one long; 0 names none. */
    static long pack(int index, long count) {
        return ((long) (index + 1) << COUNT_BITS) | count;
    }

    /**
     * RTO, recording: whether {@code ctx}'s thread runs alone: the main thread, before any other
     * recorded thread started ({@link Threads#othersStarted}; a shutdown hook registered but not
     * started does not count). Nothing can interleave with its events then, so each is relaxed
     * ({@link RecordOrder#recordRelaxed}), without taking its slot's lock or leaving a trace in the slot.
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
        } else {
            ReplayOrder.completedTaken(ctx);
        }
        ctx.depth = 0;
    }

    /** The thread index of a {@link #pack packed} event. */
    static int owner(long packed) {
        return (int) (packed >>> COUNT_BITS) - 1;
    }
}
