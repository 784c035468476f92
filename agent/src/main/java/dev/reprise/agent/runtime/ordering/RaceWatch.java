package dev.reprise.agent.runtime.ordering;

import dev.reprise.agent.runtime.events.Rt;
import dev.reprise.agent.runtime.events.ThreadCtx;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * Record, RTO, when {@code reprise record} learns a program's races: finds the plain fields two
 * threads access, one of them writing, with no ordered synchronization event between the two
 * accesses. Such a field is what a replay reads another value from; the next recording orders it
 * as {@code --order-field} would ({@code cli/RaceProfile}).
 *
 * <p>Happens-before comes from Reprise's own ordering: every edge a thread's ordered event logs
 * (to another thread's event, by count) raises what the thread has seen of that thread
 * ({@link #saw}), and with it all that thread had seen; a started thread begins with what its
 * parent had seen, and its parent's count ({@link #inherited}); a join follows the joined thread.
 * An access is stamped with its thread's count of events so far; an access by thread {@code T}
 * after one by thread {@code U} stamped {@code c} is ordered when {@code T} has seen an event of
 * {@code U} past {@code c}. A monitor's release is no event: the next holder's acquisition
 * follows the acquisition before it, and covers all its holder did up to now, past the release
 * (events inside the block, a nested monitor, raised its count). What another thread had seen is
 * taken as of now, not as of the event, which may hide a race, never report one. A write's edges
 * to the reads before it are no happens-before in the memory model, but a replay keeps them, so
 * what they order replays. A hand-off through a thread that is not recorded is no edge, and
 * looks like a race, which only orders one field more.
 *
 * <p>Per field, not per object: each field remembers the objects of its last reads and, apart,
 * of its last writes ({@link Accesses}), and compares by reference, so nothing hashes the
 * program's objects (which would change the identity hashes a replay gives them). Two threads
 * working on one object's field meet there; a race on an object that drops out of the field's
 * window between the two threads' accesses is missed. Writes after construction are rare beside
 * reads, so a write stays in its window past thousands of reads of other objects: a reader walking
 * a cache of many entries still meets the eviction another thread made of one of them. A field's
 * windows change together under a lock of the field's own; what a thread has seen is its own,
 * read by others without synchronization, and only grows: a stale read sees less, which only
 * hides a race.
 *
 * <p>Reference array elements are watched per array, under the array's class (so a class reading
 * an array another class fills meets it there): each access names the class whose code made it,
 * and a race names both classes, whose element accesses the next recording orders
 * ({@code owner.[]}). Per array, not per element: two threads filling distinct slots with nothing
 * between them count as racing, which only orders more.
 */
public final class RaceWatch {
    /** Whether this run watches: set once in premain, before any class is instrumented. */
    private static volatile boolean on;
    /** Fields watched at most; later ones are not watched. */
    private static final int MAX_FIELDS = 1 << 16;
    /** Threads an edge can name here: class initializers' contexts (indexes from the top) are not watched. */
    private static final int MAX_THREADS = 1 << 12;
    /**
     * Field names by id, in an open-addressed table keyed by the name's hash: the instrumented code
     * passes the name, a constant the JVM interns, so an id costs a hash the string caches and a
     * reference compare, and cached instrumented classes stay right in every run.
     */
    private static final String[] NAMES = new String[MAX_FIELDS];
    /** Per field, the objects whose field was read and written last, made at the field's first access. */
    private static final Accesses[] ACCESSES = new Accesses[MAX_FIELDS];
    private static final boolean[] RACED = new boolean[MAX_FIELDS];
    /**
     * Per field, whether a recorded thread filled it as a lazily computed cache ({@link #fill}).
     * Plain: set by the program's threads, read at the exit; a stale read there leaves out a
     * field, which only orders less.
     */
    private static final boolean[] FILLED = new boolean[MAX_FIELDS];
    /** The classes declaring fields ordered already (named or learned before): their other written fields go along. */
    private static volatile Set<String> orderedOwners = Set.of();
    /** Per field, a thread's index plus one while it reads or updates the field's {@link #ACCESSES}; through {@link #LOCKS}. */
    private static final int[] LOCKED = new int[MAX_FIELDS];
    private static final VarHandle LOCKS = MethodHandles.arrayElementVarHandle(int[].class);
    /** Recorded threads' contexts by index, set as each opens, before any thread orders after its events. */
    private static final ThreadCtx[] CONTEXTS = new ThreadCtx[MAX_THREADS];
    private static final int COUNT_BITS = 44;
    private static final long COUNT_MASK = (1L << COUNT_BITS) - 1;
    /**
     * Per slot ({@code SyncOrder}), the index of the recorded thread that acquired a monitor there
     * last, -1 if none; read and written under the slot's lock ({@code SlotLocks.MEMORY}). An
     * acquisition follows that thread up to its count now ({@link #acquired}).
     */
    private static final int[] HOLDERS = new int[SyncOrder.SLOTS];

    static {
        Arrays.fill(HOLDERS, -1);
    }

    /**
     * The JDK classes watched besides the application's: collections a program may share between
     * threads unsafely (h2's queue of waiting sessions is an {@code ArrayDeque}). Not the maps,
     * whose instances the JDK's own caches share under its own locks, which Reprise does not order.
     * A race on one of their fields takes the others the run accessed along ({@link #alongside}).
     */
    public static final Set<String> JDK_COLLECTIONS = Set.of("java/util/ArrayDeque", "java/util/ArrayList",
            "java/util/LinkedList", "java/util/PriorityQueue");

    /** The classes whose reference array element accesses raced, internal names; under its own lock. */
    private static final Set<String> ELEMENT_RACES = new TreeSet<>();
    /** The classes whose objects a thread hashed after another gave them their value, internal names; under its own lock. */
    private static final Set<String> HASH_RACES = new TreeSet<>();
    /**
     * Classes put in {@link #HASH_RACES} lately, by their names' hashes, which spare the lock at
     * every later hash of their objects. Plain: a stale miss only takes the lock once more.
     */
    private static final String[] HASHED_ACROSS = new String[1024];
    /** The classes whose objects are hashed where the program makes them already ({@code owner.#hash}). */
    private static volatile Set<String> hashedWhereMade = Set.of();

    private RaceWatch() {
    }

    /** {@code ordered}: the fields ordered already, as {@code internal/Class.field}, or {@code .[]} for array elements. */
    public static void configure(boolean watch, List<String> ordered) {
        Set<String> owners = new HashSet<>();
        Set<String> hashed = new HashSet<>();
        for (String f : ordered) {
            if (f.endsWith(".#hash")) {
                hashed.add(owner(f));
            } else if (!f.endsWith(".[]")) {
                owners.add(owner(f));
            }
        }
        orderedOwners = Set.copyOf(owners);
        hashedWhereMade = Set.copyOf(hashed);
        if (watch) {
            // Linked now, not at the first watched access, which may come deep in a recursion:
            // the release's linking overflowed the stack there and left a field's lock held.
            LOCKS.compareAndSet(LOCKED, 0, 0, 0);
            LOCKS.getOpaque(LOCKED, 0);
            LOCKS.setRelease(LOCKED, 0, 0);
        }
        on = watch;
    }

    private static String owner(String field) {
        return field.substring(0, field.lastIndexOf('.'));
    }

    public static boolean on() {
        return on;
    }

    /**
     * Before a call the JDK itself makes into a collection class the watch sees
     * ({@code instrument/UnwatchedCallRewriter}): until the matching {@link #watched}, the
     * thread's accesses are not watched. The JDK shares such lists under its own locks (the
     * logger tree's under {@code LogManager}'s), which Reprise does not order, so the watch would
     * take them for races and order every list's fields. Nothing else about the thread changes:
     * the bracket is in recordings that watch only, so it must not change what is recorded.
     */
    public static void unwatched() {
        if (Rt.active) {
            ThreadCtx ctx = Rt.current();
            if (ctx != ThreadCtx.UNRECORDED) {
                ctx.unwatched++;
            }
        }
    }

    /** After the call {@link #unwatched} preceded, also when it threw. */
    public static void watched() {
        if (Rt.active) {
            ThreadCtx ctx = Rt.current();
            if (ctx != ThreadCtx.UNRECORDED) {
                ctx.unwatched--;
            }
        }
    }

    /** The id of {@code field} ({@code owner.name}, internal class name); -1 once the table is full. */
    private static int id(String field) {
        int i = field.hashCode() & (MAX_FIELDS - 1);
        for (int probes = 0; probes < MAX_FIELDS; probes++, i = (i + 1) & (MAX_FIELDS - 1)) {
            String n = NAMES[i];
            if (n == field) {
                return i;
            }
            if (n == null) {
                return register(field);
            }
            if (n.equals(field)) {
                return i;
            }
        }
        return -1;
    }

    /** Registers {@code field} once, under the lock: the probe that found no name raced with another registering. */
    private static synchronized int register(String field) {
        int i = field.hashCode() & (MAX_FIELDS - 1);
        for (int probes = 0; probes < MAX_FIELDS; probes++, i = (i + 1) & (MAX_FIELDS - 1)) {
            if (NAMES[i] == null) {
                NAMES[i] = field;
                return i;
            }
            if (NAMES[i].equals(field)) {
                return i;
            }
        }
        return -1;
    }

    public static void read(Object o, String field) {
        access(o, field, false);
    }

    public static void write(Object o, String field) {
        access(o, field, true);
    }

    public static void readStatic(String field) {
        access(null, field, false);
    }

    public static void writeStatic(String field) {
        access(null, field, true);
    }

    /**
     * A write of {@code field} that the method makes after testing it unset (null or zero): it
     * fills a cache computed when first asked for, which goes along with its class's races
     * ({@link #alongside}).
     */
    public static void fill(Object o, String field) {
        watch(o, field, null, true, true, false);
    }

    /** As {@link #fill}, for a static field. */
    public static void fillStatic(String field) {
        watch(null, field, null, true, true, false);
    }

    /**
     * The current thread's code in {@code site} (a class) writes {@code location} through
     * {@code Unsafe} or a {@code VarHandle}: for an array, a write of one of its elements that
     * the plain reads of {@link #readElement} may race with. A lock-free class updates its arrays'
     * numbers by compare-and-set and reads them plainly (JCTools' striped counters); only the
     * plain reads need ordering, and they are what the race names. Another location (an object
     * whose field the write reaches) is not watched.
     */
    public static void atomicWrite(Object location, String site) {
        if (location != null && location.getClass().isArray()) {
            watch(location, location.getClass().getName(), site, true, false, true);
        }
    }

    /** The current thread's code in {@code site} (a class) reads an element of {@code array}. */
    public static void readElement(Object array, String site) {
        watch(array, array.getClass().getName(), site, false, false, false);
    }

    /** The current thread's code in {@code site} (a class) writes an element of {@code array}. */
    public static void writeElement(Object array, String site) {
        watch(array, array.getClass().getName(), site, true, false, false);
    }

    private static void access(Object o, String field, boolean write) {
        watch(o, field, null, write, false, false);
    }

    /**
     * An access to {@code key} (a field, or an array class) of {@code o}; {@code site}, for an
     * array element, the class whose code accesses it, else null; {@code fill}, a write filling
     * a lazily computed cache; {@code atomic}, a write through {@code Unsafe} or a handle, ordered
     * already, which the plain accesses after it may race with but which races with nothing itself.
     */
    private static void watch(Object o, String key, String site, boolean write, boolean fill, boolean atomic) {
        // Main alone races with no one, and what it did before a start happens-before the
        // started thread: a single-threaded program, or one's first phase, costs a test, and
        // for a cache's fill, the note that the field is one (the objects outlive the phase).
        if (!Rt.active) {
            return;
        }
        boolean alone = AloneMain.thread == Thread.currentThread();
        if (alone && !fill) {
            return;
        }
        int f = id(key);
        if (f < 0 || RACED[f]) {
            return;
        }
        ThreadCtx ctx = Rt.current();
        // Not a recorded thread, Reprise's own work, the JDK's own calls into java.util.concurrent
        // (unordered by design) or into the collections watched, or a class initializer's context
        // (which the JVM orders).
        if (ctx.depth != 0 || ctx.quiet != 0 || ctx.unwatched != 0 || ctx.initializing != null || ctx.index < 0
                || ctx.index >= MAX_THREADS) {
            return;
        }
        if (fill && !FILLED[f]) {
            FILLED[f] = true;
        }
        if (alone) {
            return;
        }
        long me = ((long) (ctx.index + 1) << COUNT_BITS) | ctx.syncCount;
        boolean raced;
        String other; // for an array, the class of the access raced with
        // A field's objects and stamps change together, under the field's lock: two threads
        // accessing the field of two objects at once otherwise mixed one's object with the
        // other's stamps, a race no two threads ran.
        // A waiter spins reading, not writing: a failed compare-and-set takes the lock's cache
        // line from its holder as a successful one does. The lock holds its thread's index plus
        // one. Found held by this thread, it is one whose release a stack overflow stopped (the
        // program recursing until it overflows, then catching it): nothing here nests, so the
        // thread takes it back rather than waiting for itself forever.
        int holder = ctx.index + 1;
        acquire:
        while (!LOCKS.compareAndSet(LOCKED, f, 0, holder)) {
            int held;
            do {
                Thread.onSpinWait();
                held = (int) LOCKS.getOpaque(LOCKED, f);
                if (held == holder) {
                    break acquire;
                }
            } while (held != 0);
        }
        try {
            Accesses accesses = ACCESSES[f];
            if (accesses == null) {
                accesses = new Accesses();
                ACCESSES[f] = accesses;
            }
            Writes writes = accesses.writes;
            Window reads = accesses.reads;
            int r = reads.indexOf(o);
            // A read needs no scan of the writes when the thread's own last read of the object
            // came after them all (a write since would have cleared that read's stamp), or when
            // the thread has seen every write there (it synchronized since, or they are its own).
            boolean seenWrites = !write && (r >= 0 && reads.stamps[r] >>> COUNT_BITS == ctx.index + 1 || !writes.mayRace(ctx));
            int w = seenWrites ? -1 : writes.indexOf(o);
            boolean afterWrite = w >= 0 && unordered(ctx, writes.stamps[w]);
            boolean afterRead = write && r >= 0 && unordered(ctx, reads.stamps[r]);
            raced = !atomic && (afterWrite || afterRead);
            other = afterWrite ? writes.sites[w] : afterRead ? reads.sites[r] : null;
            if (write) {
                writes.put(w, o, me, site);
                if (r >= 0) {
                    reads.stamps[r] = 0; // later writes race with the reads after this one
                }
            } else {
                reads.put(r, o, me, site);
            }
        } finally {
            LOCKS.setRelease(LOCKED, f, 0);
        }
        if (!raced) {
            return;
        }
        if (site == null) {
            RACED[f] = true;
        } else {
            synchronized (ELEMENT_RACES) {
                ELEMENT_RACES.add(site);
                if (other != null) {
                    ELEMENT_RACES.add(other);
                }
            }
        }
    }

    /**
     * Whether {@code other}, an access packed as in {@link Window#stamps}, is another thread's that
     * {@code ctx} has not seen: its count is not below what {@code ctx} has seen of its thread.
     */
    private static boolean unordered(ThreadCtx ctx, long other) {
        int thread = (int) (other >>> COUNT_BITS) - 1;
        if (other == 0 || thread == ctx.index) {
            return false;
        }
        long[] seen = ctx.seen;
        return seen == null || thread >= seen.length || seen[thread] <= (other & COUNT_MASK);
    }

    /**
     * A field's last reads and last writes, each in a window of its own: reads, many times more
     * frequent, would push a write out before the other thread's read of the same object came.
     * Only under the field's lock.
     */
    private static final class Accesses {
        final Window reads = new Window(16);
        final Writes writes = new Writes();
    }

    /**
     * The last writes, with each writing thread's newest one: stamps of one thread only grow, so
     * a thread that has seen a writer's newest write has seen all its writes here.
     */
    private static final class Writes extends Window {
        /** The threads tracked apart; with more writers than that, every read scans. */
        private static final int WRITERS = 8;
        final long[] newest = new long[WRITERS];
        int writers;
        boolean crowded;

        Writes() {
            super(64);
        }

        @Override
        void put(int i, Object o, long stamp, String site) {
            super.put(i, o, stamp, site);
            long thread = stamp >>> COUNT_BITS;
            for (int k = 0; k < writers; k++) {
                if (newest[k] >>> COUNT_BITS == thread) {
                    newest[k] = stamp;
                    return;
                }
            }
            if (writers < WRITERS) {
                newest[writers++] = stamp;
            } else {
                crowded = true;
            }
        }

        /** Whether a write here may be one {@code ctx} has not seen of another thread. */
        boolean mayRace(ThreadCtx ctx) {
            if (crowded) {
                return true;
            }
            for (int k = 0; k < writers; k++) {
                if (unordered(ctx, newest[k])) {
                    return true;
                }
            }
            return false;
        }
    }

    /**
     * The objects of a field's last accesses of one kind, replaced in turn: a shared object stays
     * while each thread also works on objects of its own (h2's queue of waiting sessions among the
     * deques every query makes). Compared by reference; a static field's object is null.
     */
    private static class Window {
        final Object[] objects;
        /** Each object's last access, as (thread index + 1, count) packed; 0 none since the last write, for a read. */
        final long[] stamps;
        /** For an array, the class whose code made that access; null for a field. */
        final String[] sites;
        int used;
        int next;

        Window(int ways) {
            objects = new Object[ways];
            stamps = new long[ways];
            sites = new String[ways];
        }

        int indexOf(Object o) {
            for (int i = 0; i < used; i++) {
                if (objects[i] == o) {
                    return i;
                }
            }
            return -1;
        }

        /** Notes an access to {@code o}, at {@code i} when {@code o} is there, else in place of the oldest. */
        void put(int i, Object o, long stamp, String site) {
            if (i < 0) {
                if (used < objects.length) {
                    i = used++;
                } else {
                    i = next;
                    next = (next + 1) % objects.length;
                }
                objects[i] = o;
            }
            stamps[i] = stamp;
            sites[i] = site;
        }
    }

    /** Opens the watch of {@code ctx}, a recorded thread's new context, with what it has seen as it begins ({@link #inherited}). */
    static void opened(ThreadCtx ctx, long[] seen) {
        if (on && ctx.index >= 0 && ctx.index < MAX_THREADS) {
            ctx.seen = seen;
            CONTEXTS[ctx.index] = ctx;
        }
    }

    /**
     * A monitor acquired on {@code slot}, under the slot's lock: the thread follows the monitor's
     * previous holder up to its count now. The ordering gives no edge when the slot's last event is
     * the acquirer's own, a volatile write to the same object (whose slot its monitor shares), and
     * without this the watch took a field the monitor guards for a race (a promise's count of
     * waiters, beside its volatile result).
     */
    static void acquired(ThreadCtx ctx, int slot) {
        int previous = HOLDERS[slot];
        HOLDERS[slot] = ctx.index;
        if (previous >= 0 && previous != ctx.index) {
            saw(ctx, previous, 0, true);
        }
    }

    /**
     * {@code ctx}'s ordered event follows event {@code count} of thread {@code thread}; for a
     * monitor's acquisition ({@code acquisition}), what that thread has done since, up to its
     * release: its count now, a plain read of another thread's field that may lag, which only
     * sees less. {@code seen} holds the first count not covered.
     */
    static void saw(ThreadCtx ctx, int thread, long count, boolean acquisition) {
        if (!on || thread < 0 || thread >= MAX_THREADS || ctx.index < 0 || thread == ctx.index) {
            return;
        }
        ThreadCtx other = CONTEXTS[thread];
        // Covered: the other thread's accesses stamped below the event's count, which came
        // before the event; for an acquisition, also those stamped up to its count now.
        long covered = acquisition && other != null ? Math.max(count, other.syncCount) + 1 : count;
        long[] theirs = other == null ? null : other.seen;
        long[] seen = ctx.seen;
        int n = Math.max(thread + 1, theirs == null ? 0 : theirs.length);
        if (seen == null || seen.length < n) {
            seen = Arrays.copyOf(seen == null ? new long[0] : seen, n);
            ctx.seen = seen;
        }
        seen[thread] = Math.max(seen[thread], covered);
        if (theirs != null) {
            // What the other thread had seen, taken now rather than as of the event: it may have
            // seen more since, which only hides a race, never reports one.
            for (int i = 0; i < theirs.length; i++) {
                seen[i] = Math.max(seen[i], theirs[i]);
            }
        }
    }

    /**
     * TO: {@code ctx} drew a turn, which follows every turn drawn before it, of every thread: the
     * thread follows each recorded thread up to its count now. A plain read of another thread's
     * count may lag, which only sees less; a thread that counted an event whose turn it has not
     * drawn yet is taken as seen, which may hide a race, never report one.
     */
    static void turn(ThreadCtx ctx) {
        if (ctx.index < 0 || ctx.index >= MAX_THREADS) {
            return;
        }
        int n = Threads.indexes();
        long[] seen = ctx.seen;
        if (seen == null || seen.length < n) {
            seen = Arrays.copyOf(seen == null ? new long[0] : seen, Math.min(n, MAX_THREADS));
            ctx.seen = seen;
        }
        for (int i = 0; i < seen.length; i++) {
            ThreadCtx other = CONTEXTS[i];
            if (other != null && i != ctx.index) {
                seen[i] = Math.max(seen[i], other.syncCount);
            }
        }
    }

    /** The current thread's join of {@code t} returned with {@code t} ended: it follows all {@code t} did. */
    public static void joined(Thread t) {
        if (on) {
            ThreadCtx ctx = Rt.current();
            if (ctx.depth <= 1 && ctx.index >= 0) {
                saw(ctx, Threads.indexOf(t), 0, true);
            }
        }
    }

    /**
     * What a thread {@code parent} starts has seen as it begins: all that its parent had, and
     * everything its parent did before the start, which comes before the start's own event.
     */
    static long[] inherited(ThreadCtx parent) {
        if (!on || parent.index < 0 || parent.index >= MAX_THREADS) {
            return null;
        }
        long[] seen = Arrays.copyOf(parent.seen == null ? new long[0] : parent.seen, Math.max(parent.index + 1,
                parent.seen == null ? 0 : parent.seen.length));
        seen[parent.index] = Math.max(seen[parent.index], parent.syncCount + 1); // its accesses so far, before the start
        return seen;
    }

    /**
     * The fields found racing, as {@code internal/Class.field}, and the classes whose array
     * element accesses did, as {@code internal/Class.[]}; sorted.
     */
    public static List<String> raced() {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < MAX_FIELDS; i++) {
            if (RACED[i] && NAMES[i] != null) {
                out.add(NAMES[i]);
            }
        }
        synchronized (ELEMENT_RACES) {
            for (String c : ELEMENT_RACES) {
                out.add(c + ".[]");
            }
        }
        synchronized (HASH_RACES) {
            for (String c : HASH_RACES) {
                // Hashed where made already: the objects the program's code does not make are
                // not the watch's to name again.
                if (!hashedWhereMade.contains(c)) {
                    out.add(c + ".#hash");
                }
            }
        }
        out.sort(null);
        return out;
    }

    /**
     * A recorded thread saw the identity hash another thread gave an object of class {@code c}
     * ({@code IdentityHashes}): threads share such objects, and which hashes one first may be a
     * race a replay runs the other way, giving it another value. The next recording gives them
     * their hashes where they are made ({@code owner.#hash}). No happens-before is asked for: an
     * object hashed by its maker before it handed it over is named too, which only hashes earlier.
     */
    public static void hashedAcross(Class<?> c) {
        String name = c.getName();
        int at = name.hashCode() & (HASHED_ACROSS.length - 1);
        if (name.equals(HASHED_ACROSS[at])) {
            return;
        }
        synchronized (HASH_RACES) {
            HASH_RACES.add(name.replace('.', '/'));
        }
        HASHED_ACROSS[at] = name;
    }

    /**
     * The fields that go along with those found racing or ordered already: not found racing
     * themselves, but filled as lazily computed caches by a recorded thread ({@link #fill}), and
     * declared by a class one of whose fields raced or is ordered; sorted. A race shows that the
     * class's objects are shared without synchronization, so the caches they compute when first
     * asked are filled and read the same way, whether or not this run's interleaving made a race
     * on each where the watch saw it (a type's hash, supertypes and substitution, one met racing).
     * For one of the {@link #JDK_COLLECTIONS}, every field of its class the run accessed goes
     * along: its methods read them together ({@code ArrayDeque.isEmpty} compares head and tail),
     * and h2's waiting sessions raced on the tail only in its learning runs, then on the head in
     * a later recording, whose replay skipped a table's wake-up.
     */
    public static List<String> alongside() {
        Set<String> classes = new HashSet<>(orderedOwners);
        for (int i = 0; i < MAX_FIELDS; i++) {
            if (RACED[i] && NAMES[i] != null) {
                classes.add(owner(NAMES[i]));
            }
        }
        List<String> out = new ArrayList<>();
        for (int i = 0; i < MAX_FIELDS; i++) {
            // Arrays are keyed by their class's name ("[J"), no field: nothing goes along with them.
            if (RACED[i] || NAMES[i] == null || NAMES[i].charAt(0) == '[') {
                continue;
            }
            String owner = owner(NAMES[i]);
            if (classes.contains(owner) && (FILLED[i] || JDK_COLLECTIONS.contains(owner))) {
                out.add(NAMES[i]);
            }
        }
        out.sort(null);
        return out;
    }
}
