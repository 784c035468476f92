package dev.reprise.agent.runtime.identity;

import dev.reprise.agent.runtime.events.Rt;
import dev.reprise.agent.runtime.events.ThreadCtx;
import dev.reprise.agent.runtime.jdk.HiddenClassNames;
import dev.reprise.agent.runtime.jdk.JdkLoaders;
import dev.reprise.agent.runtime.jdk.JdkMethods;
import dev.reprise.agent.runtime.ordering.RaceWatch;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.invoke.VarHandle;

import jdk.internal.vm.annotation.DontInline;

/**
 * Deterministic identity hash codes. The JVM's identity hashes differ from run to run, and with
 * them the iteration order of hash maps keyed by objects without their own {@code hashCode}.
 * Rather than log every hash, Reprise gives each object, at its first identity-hash request on a
 * recorded thread, a value derived from the thread's path, the object's class, and how many
 * objects of that class the thread has hashed before: the same in the recording and in every
 * replay, with nothing logged. Three of its high bits name the thread's partition of the ordering
 * slots ({@link HashPartitions#partitioned}). Counting per class keeps the JDK's own lazy work, which may hash
 * its internal objects at different moments in a recording and a replay, from shifting the
 * values the program's objects get.
 * Unrecorded threads (JVM and Reprise internals) get the JVM's own value; code running inside an
 * intercepted call, which may differ between a recording and its replays, a provisional one
 * ({@link ProvisionalHashes}).
 *
 * <p>An object that already carries a JVM identity hash keeps it: it may sit in a hash table
 * built before Reprise started (the JDK's own, at start-up) or by an unrecorded thread, and a
 * second value would lose it there. Whether the JVM has hashed an object is read from the hash
 * bits of its header, whose position is measured at start-up; where it cannot be measured, every
 * object is virtualized. The header of a locked object holds a lock pointer instead, and so does
 * that of an object whose monitor the JVM inflated, until it deflates it at a time of its own:
 * if the hashing thread holds that lock, the header the lock keeps says ({@link HeldHeaders});
 * otherwise such an object keeps whatever value it has, ours or else the JVM's.
 *
 * <p>Where start-up proved it works ({@link Header#INSTALLS}), an object's value is written into
 * its header's hash bits, as the JVM writes its own: the JVM then answers with it, and nothing
 * else holds it; an object another thread hashed at the same moment keeps the hash that landed
 * first. Otherwise, and for an object whose header a lock took under the write, the value goes
 * to a weak table, which every later request for a hashed object must then consult. An object
 * hashed under its own monitor, which the hashing thread holds, goes there too, but sends only
 * the objects whose JVM hash shares its low bits to the table ({@link #HELD_SPILLS}).
 *
 * <p>A class's value derives from its name alone, at any depth and on any thread: the JDK hashes
 * classes in its own uninstrumented code (a {@code MethodType}'s hash) and inside events (linking
 * a method handle), so whether a class carries a JVM hash when the program first hashes it varies
 * between a recording and its replays. Classes the JVM hashed before recording began keep that
 * value; a hidden class, whose name holds an address, is hashed like any object.
 */
public final class IdentityHashes {
    private static final WeakIdentityTable<Integer> ASSIGNED = new WeakIdentityTable<>();
    private static final long UNLOCKED = 1;
    /**
     * The low header bits that read {@link #UNLOCKED} in a plain header: JDK 17's biased locking
     * (off unless asked for) marks a biasable header with the third bit, whose other bits are
     * no hash then.
     */
    private static final long PLAIN_MASK = 7;
    /** The low header bits of a biased or biasable header (JDK 17's biased locking). */
    private static final long BIASED = 5;
    /** {@link #install}'s answer when a lock holds the header: no hash is negative (31 bits). */
    private static final int NOT_INSTALLED = -1;
    /**
     * Whether some value went to {@link #ASSIGNED} while values are installed in headers (a header
     * a lock took under the write): from then on a hashed object's value is looked up there first.
     * Set once, never cleared; volatile, so that a thread that sees the object's entry sees it set
     * (the object reached that thread after its value was assigned).
     */
    private static volatile boolean spilled;

    /**
     * The low 16 bits of the JVM hashes of objects whose value went to {@link #ASSIGNED} while the
     * thread that hashed them held their monitor, or while an inflated monitor no thread held
     * took their header ({@link #monitorInflated}), as a set of bits: a hashed header whose bits
     * are in it may be such an object's, and its value is looked up in the table. On JDK 17 a
     * thread that starts another holds the new thread's monitor as it gives it its value
     * ({@code Thread.start} is synchronized), and one that reads a {@code BufferedInputStream}
     * holds the stream's as Reprise orders the read of its volatile buffer: setting
     * {@link #spilled} for these sent nearly every program's later hashes through the table. Only
     * the holder can unlock the object, so its header shows the JVM's hash plainly only after the
     * bit is set; an unheld monitor the JVM may deflate between the hash and the bit, and a
     * thread that hashes the object just then keeps the JVM's hash, as two threads' first hashes
     * of one object race. The provisional values of objects hashed inside events
     * ({@link ProvisionalHashes}) have their bits here too, so that a hash of such an object
     * leaves the fast path and settles it. Bits are never cleared: each costs the objects that
     * share it the table lookup.
     * A plain array through {@link #BITS}: the accesses of {@code java.util.concurrent.atomic}
     * classes are the program's synchronization.
     */
    private static final long[] HELD_SPILLS = new long[1 << 10];
    private static final VarHandle BITS = MethodHandles.arrayElementVarHandle(long[].class);

    /** Hidden classes' values, given as they were defined ({@link #defined}). */
    private static final WeakIdentityTable<Integer> HIDDEN_CLASSES = new WeakIdentityTable<>();
    /** The value of each object of a hidden class that declares no instance field ({@link #defined}). */
    private static final WeakIdentityTable<Integer> STATELESS = new WeakIdentityTable<>();
    /**
     * Per class, the {@link #STATELESS} value of its objects, or 0: asked of every object's first
     * hash, which a test of whether the class is hidden would make a call into the JVM.
     */
    private static final ClassValue<Integer> STATELESS_VALUES = new ClassValue<>() {
        @Override
        protected Integer computeValue(Class<?> c) {
            Integer v = c.isHidden() ? STATELESS.get(c) : null;
            return v != null ? v : 0;
        }
    };

    /**
     * Classes' values: for a named class a JVM hash taken before recording began, else one from
     * the name; for a hidden class the one it was given when defined, if any, else none, and it is
     * hashed as any object. Whether a class is hidden is asked once here, where a test of each
     * request was a call into the JVM (h2 hashes a value's class with each value).
     */
    private static final ClassValue<Integer> CLASS_HASHES = new ClassValue<>() {
        @Override
        protected Integer computeValue(Class<?> c) {
            if (c.isHidden()) {
                return HIDDEN_CLASSES.get(c);
            }
            Integer kept = ASSIGNED.get(c);
            return kept != null ? kept : mix(c.getName().hashCode() * 0x9E3779B97F4A7C15L + 0x632BE59BD9B4E013L);
        }
    };

    private IdentityHashes() {
    }

    /** Measures the header layouts and answers for Reprise's own classes before instrumentation starts ({@link IdentityVerdicts#prime}). */
    public static void prime() {
        Header.init();
        // Links the bit set's VarHandle calls now: linked at their first use, inside a hash, they
        // made method types that the hook hashed, and so recursed.
        addHeldSpill(0, 0L);
        heldSpill(0);
        ProvisionalHashes.marked(0); // initialized now, not inside a hash
        IdentityVerdicts.prime(Object.class, Class.class, String.class, Integer.class, Long.class,
                java.lang.reflect.Method.class, java.lang.reflect.Field.class, Thread.class,
                java.lang.invoke.MethodType.class, Enum.class, JdkMethods.jdkClass("java.lang.ClassValue$Identity"));
    }

    /**
     * Called once, just before recording begins, with the classes loaded before the agent: the
     * JVM hashed them all ({@link StartupHashes}), as keys of the JDK's start-up tables or in name
     * order, and they keep those values. A class Reprise's own start-up loaded gets its value
     * from its name: which classes that start-up loads and hashes, and when, differs between
     * recording and replay (a fresh class cache transforms more), so a JVM hash it drew would
     * differ too. The primitive types are not among the loaded classes the JVM lists.
     */
    public static void keepClassHashes(Class<?>[] loaded) {
        for (Class<?>[] classes : new Class<?>[][] {loaded, {boolean.class, byte.class, char.class, short.class,
                int.class, long.class, float.class, double.class, void.class}}) {
            for (Class<?> c : classes) {
                if (namedClass(c) && mayBeHashedByJvm(c)) {
                    ASSIGNED.put(c, System.identityHashCode(c));
                }
            }
        }
    }

    /**
     * How to read an object's header word, found once at start-up. Constants, so that the compiled
     * code of every ordered action reads the header directly (through a field set later, each read
     * was a method handle call, a tenth of the juc workload's recording).
     */
    private static final class Header {
        /** {@code Unsafe.getLong(o, 0)}, or null if the layout is unknown. */
        static final MethodHandle WORD;
        /** Bit position of the identity hash in an unlocked header, or -1 if unknown. */
        static final int SHIFT;
        /** {@code Unsafe.compareAndSetLong(o, 0, expected, x)}, or null if the layout is unknown. */
        static final MethodHandle CAS;
        /** Whether a value written into an unhashed header's hash bits is what the JVM answers for it. */
        static final boolean INSTALLS;
        /** Where the header of an object whose monitor is held keeps its hash bits, or null if the layout is unknown. */
        static final HeldHeaders HELD;

        static {
            MethodHandle word = null;
            MethodHandle cas = null;
            int shift = -1;
            boolean installs = false;
            try {
                Class<?> unsafe = Class.forName("jdk.internal.misc.Unsafe");
                Object u = unsafe.getMethod("getUnsafe").invoke(null);
                MethodHandles.Lookup lookup = MethodHandles.privateLookupIn(unsafe, MethodHandles.lookup());
                MethodHandle getLong = lookup
                        .findVirtual(unsafe, "getLong", MethodType.methodType(long.class, Object.class, long.class))
                        .bindTo(u);
                Object probe = new Object();
                int h = System.identityHashCode(probe);
                long mark = (long) getLong.invokeExact(probe, 0L);
                for (int s = 0; s <= 32 && shift < 0; s++) {
                    if (hashBits(mark, s) == h && (mark & 3) == UNLOCKED) {
                        word = getLong;
                        shift = s;
                    }
                }
                if (shift >= 0) {
                    cas = lookup.findVirtual(unsafe, "compareAndSetLong",
                            MethodType.methodType(boolean.class, Object.class, long.class, long.class, long.class)).bindTo(u);
                    installs = installWorks(getLong, cas, shift);
                }
            } catch (Throwable e) {
                // header layout unknown: virtualize every object, through the table
            }
            WORD = word;
            SHIFT = shift;
            CAS = installs ? cas : null;
            INSTALLS = installs;
            HELD = shift >= 0 ? HeldHeaders.measure(word, shift) : null;
        }

        /**
         * Writes a value into a fresh object's header and asks the JVM for its identity hash. Only
         * a hash field of the full 31 bits is written to: the JVM's own values must reach bit 30
         * (one of 32 random ones failing to is a chance of 2^-32, and only costs the table), so
         * that no value spills into the header's other bits.
         */
        private static boolean installWorks(MethodHandle getLong, MethodHandle cas, int shift) throws Throwable {
            int widest = 0;
            for (int i = 0; i < 32; i++) {
                widest |= System.identityHashCode(new Object());
            }
            if ((widest & 0x40000000) == 0) {
                return false;
            }
            Object probe = new Object();
            long mark = (long) getLong.invokeExact(probe, 0L);
            int v = 0x6B8B4567;
            return plainUnhashed(mark, shift) && (boolean) cas.invokeExact(probe, 0L, mark, withHash(mark, shift, v))
                    && System.identityHashCode(probe) == v;
        }

        /** Runs the calibration now, in premain, after the JDK's packages were opened to the agent. */
        static void init() {
        }
    }

    /** Whether {@code o} certainly has no identity hash yet: its header, or the one its held lock keeps, has empty hash bits. */
    static boolean surelyUnhashed(Object o) {
        return Header.SHIFT >= 0 && !mayBeHashedByJvm(o);
    }

    /**
     * False only if the JVM has certainly not given {@code o} an identity hash: its header is
     * unlocked and without hash bits, or biased (JDK 17's biased locking: hashing revokes a
     * bias, and the bits where a hash would be hold the owner), or its monitor is held by this
     * thread and the header the lock keeps has no hash bits ({@link HeldHeaders}). A lock another
     * thread holds does not say, and giving an object the JVM hashed a second value would lose it
     * in the tables that hold it.
     */
    private static boolean mayBeHashedByJvm(Object o) {
        if (Header.SHIFT < 0) {
            return false;
        }
        try {
            long mark = (long) Header.WORD.invokeExact(o, 0L);
            if ((mark & PLAIN_MASK) == BIASED) {
                return false;
            }
            if ((mark & 3) == UNLOCKED) {
                return hashBits(mark, Header.SHIFT) != 0;
            }
            return Header.HELD.hashBits(o, mark) != 0;
        } catch (Throwable e) {
            return false;
        }
    }

    /** The identity hash bits of an unlocked header word whose hash field starts at {@code shift}. */
    private static int hashBits(long mark, int shift) {
        return (int) (mark >>> shift) & 0x7FFFFFFF;
    }

    /** Whether a header word is plain (unlocked, not biased) and holds no hash: the only one a hash is written into. */
    private static boolean plainUnhashed(long mark, int shift) {
        return plain(mark) && hashBits(mark, shift) == 0;
    }

    /** Whether a header word is plain: unlocked, not biased; only then do its hash bits hold a hash. */
    private static boolean plain(long mark) {
        return (mark & PLAIN_MASK) == UNLOCKED;
    }

    /** {@code mark} with {@code v} in its hash field. */
    private static long withHash(long mark, int shift, int v) {
        return mark | ((long) v << shift);
    }

    /**
     * {@code o.hashCode()} with identity hashes made deterministic. Not inlined: the call of
     * {@code o.hashCode()} here serves every rewritten call site, so its type profile is every
     * site's, and each caller C2 compiled it into was deoptimized whenever another key type came
     * along (docs/ARCHITECTURE.md, "Compiled code").
     *
     * <p>An object whose header already holds its identity hash needs no verdict on its class:
     * if the class hashes by identity, the JVM answers with that hash, which is the object's
     * deterministic value or one it keeps. Not a class (whose value is kept apart,
     * {@link #CLASS_HASHES}, whatever its header holds), and only while every value is in a
     * header ({@link #spilled}). The
     * verdict, a few dependent loads from the object's class, was most of the hook's time for the
     * objects h2 keys its hash maps with; the header is a load from the object itself.
     */
    @DontInline
    public static int hashCode(Object o) {
        if (o == null || !Rt.active) {
            return o.hashCode(); // null: the NullPointerException the rewritten call would have thrown
        }
        if (o instanceof MethodType t) {
            return methodType(t); // before the header test: the JDK may have hashed a type by identity too
        }
        if (!(o instanceof Class) && (hashedHeader(o) || !IdentityVerdicts.byIdentity(o.getClass()))) {
            int h = o.hashCode();
            if (RaceWatch.on() && IdentityVerdicts.byIdentity(o.getClass())) {
                seen(o, h);
            }
            return h;
        }
        return seen(o, virtualized(o));
    }

    /**
     * {@code MethodType.hashCode}'s formula over its classes' deterministic values. Its own
     * method is left as it is: the JDK interns method types by it from the JVM's start, so a
     * type's hash there must not change once Reprise is active. A class loaded before Reprise
     * keeps the JVM's hash, so a type of such classes hashes the same either way.
     */
    private static int methodType(MethodType t) {
        int h = 31 + hashCode(t.returnType());
        for (int i = 0, n = t.parameterCount(); i < n; i++) {
            h = 31 * h + hashCode(t.parameterType(i));
        }
        return h;
    }

    /** Whether {@code o}'s header is plain and holds an identity hash, which is its value ({@link Header#INSTALLS}). */
    private static boolean hashedHeader(Object o) {
        if (!Header.INSTALLS || spilled) {
            return false;
        }
        try {
            long mark = (long) Header.WORD.invokeExact(o, 0L);
            int bits = hashBits(mark, Header.SHIFT);
            return plain(mark) && bits != 0 && !heldSpill(bits);
        } catch (Throwable e) {
            return false;
        }
    }

    /** Whether an object of JVM hash {@code jvmHash} may have its value in {@link #ASSIGNED}, given under its held monitor. */
    private static boolean heldSpill(int jvmHash) {
        return ((long) BITS.getVolatile(HELD_SPILLS, (jvmHash >>> 6) & 0x3FF) & (1L << jvmHash)) != 0;
    }

    /** Adds {@code bit}, the bit of JVM hash {@code jvmHash} or none, to {@link #HELD_SPILLS}. */
    private static void addHeldSpill(int jvmHash, long bit) {
        long unused = (long) BITS.getAndBitwiseOr(HELD_SPILLS, (jvmHash >>> 6) & 0x3FF, bit);
    }

    /**
     * {@code o}'s identity hash if it already has one, without giving it one (a hash given here,
     * inside an event, would be the JVM's); 0 if not. Once a value went to {@link #ASSIGNED}
     * ({@link #spilled}), a hashed object's value may be there rather than in its header.
     */
    public static int ifHashed(Object o) {
        if (hashedHeader(o)) {
            return System.identityHashCode(o);
        }
        if (Header.SHIFT >= 0 && !mayBeHashedByJvm(o)) {
            return 0;
        }
        Integer h = ASSIGNED.get(o);
        return h != null ? h : Header.SHIFT >= 0 ? System.identityHashCode(o) : 0;
    }

    /**
     * {@code Rt.claim()} for a call of an instance method a claimed prologue hooks, whose receiver
     * first gets its identity hash if it has none. The call's live work runs only when recording
     * (and, for output, in a replay too, but inside the event either way), and it may run code a
     * library wove into the JDK's method: a mocking library's advice looks the receiver up in its
     * map of mocks by identity hash. Hashed there, inside the event, the receiver would keep the
     * JVM's hash, other in every run, and the replay's lookups, ordered events, would walk other
     * bins. Given here, at the claim, the receiver's value comes at the same point in every run.
     */
    public static boolean claimOn(Object receiver) {
        if (!Rt.active) {
            return false;
        }
        ThreadCtx ctx = Rt.current();
        if (ctx.depth != 0) {
            return false;
        }
        beforeJvmHash(ctx, receiver);
        ctx.depth = 1;
        return true;
    }

    /**
     * An application class's static initializer is about to store {@code o} into a static field
     * ({@code instrument/InitializerHashesRewriter}): gives it its value now, from the
     * initializer's context, if it has none. Every thread that uses the class shares it, and
     * which hashed it first was a race: threads each keying a map of their own by an enum's
     * constants (the constants hash by identity) walked them in another order in a replay
     * (Netty's event loops with its static {@code FastThreadLocal}s, {@code corpus.threads.SharedEnumKeys}).
     * Not inside an event, nor on a thread not recorded, where the initializer runs live.
     */
    public static void published(Object o) {
        if (o == null || !Rt.active || o instanceof String || o instanceof Class) {
            return;
        }
        ThreadCtx ctx = Rt.current();
        if (ctx != ThreadCtx.UNRECORDED && ctx.initializing != null && ctx.depth == ctx.baseDepth) {
            virtualized(o);
        }
    }

    /** {@code System.identityHashCode(o)}, made deterministic on recorded threads. */
    public static int identityHashCode(Object o) {
        if (o == null || !Rt.active) {
            return System.identityHashCode(o);
        }
        return seen(o, virtualized(o));
    }

    /**
     * The program's thread sees {@code v}, the identity hash of {@code o}: in a recording that
     * watches for races, a value another thread gave names {@code o}'s class ({@link RaceWatch#hashedAcross}).
     * Which thread hashes a shared object first is a race a replay may run the other way, and the
     * first to hash it gives it its value from its own counters. A value names the partition of
     * the thread that gave it ({@link HashPartitions}), so a thread of the same partition (every
     * eighth) goes unseen. Classes, strings, enum constants, threads and a hidden class's objects
     * take values that no thread's counters give, and are left out, and so are the JDK's objects
     * but plain {@code Object}s: the JDK makes most of them itself, where no rewritten site could
     * hash them, and many keep the hash the JVM drew (modules, a loader's values). Returns {@code v}.
     */
    private static int seen(Object o, int v) {
        if (!RaceWatch.on() || o instanceof String || o instanceof Class || o instanceof Enum || o instanceof Thread) {
            return v;
        }
        Class<?> c = o.getClass();
        if (c.isHidden() || JdkLoaders.isJdk(c.getClassLoader()) && c != Object.class) {
            return v;
        }
        ThreadCtx ctx = Rt.current();
        if (ctx == ThreadCtx.UNRECORDED || ctx.depth != ctx.baseDepth) {
            return v;
        }
        int own = ctx.initializing != null ? ctx.path.hashCode() : ctx.index;
        if ((v >>> HashPartitions.SHIFT & HashPartitions.MASK) != (own & HashPartitions.MASK)) {
            RaceWatch.hashedAcross(c);
        }
        return v;
    }

    /**
     * Application code just made {@code o}, whose class's objects threads raced to hash first
     * ({@code instrument/ConstructedHashesRewriter}): gives it its value now, from the making
     * thread's context, if it has none. Not inside an event, nor on a thread not recorded.
     */
    public static void constructed(Object o) {
        if (!Rt.active) {
            return;
        }
        ThreadCtx ctx = Rt.current();
        if (ctx != ThreadCtx.UNRECORDED && ctx.depth == ctx.baseDepth) {
            virtualized(o);
        }
    }

    /**
     * The deterministic identity hash of {@code o}, not null. Not inlined into {@link #hashCode},
     * which the hash maps of most programs call for keys with a {@code hashCode} of their own:
     * compiled into it, this path made it several kilobytes that C2 compiled inside the program's
     * time (docs/ARCHITECTURE.md, "Compiled code").
     */
    @DontInline
    private static int virtualized(Object o) {
        if (o instanceof Class<?> c) {
            Integer h = CLASS_HASHES.get(c);
            if (h != null) {
                return h;
            }
        }
        // The table hashes its keys with the JVM's identity hash, so an object in it is hashed by
        // the JVM: test the header first, and look in the table only for objects that may be.
        if (mayBeHashedByJvm(o)) {
            int jvm = System.identityHashCode(o);
            if (!Header.INSTALLS || spilled || heldSpill(jvm)) {
                Integer h = ASSIGNED.get(o);
                int p = provisionalOf(o, jvm, h);
                if (p != 0) {
                    ThreadCtx ctx = Rt.current();
                    return ctx.depth == 0 ? settle(ctx, o, p) : p;
                }
                if (h != null) {
                    return h;
                }
            }
            return jvm;
        }
        if (o instanceof String s) {
            return keep(o, stringValue(s));
        }
        int stateless = STATELESS_VALUES.get(o.getClass());
        if (stateless != 0) {
            return keep(o, stateless);
        }
        ThreadCtx ctx = Rt.current();
        // Inside an event (depth > 0) the JDK's live work differs between record and replay: what
        // it hashes must not advance the thread's counters.
        if (ctx.depth != ctx.baseDepth) {
            return ctx == ThreadCtx.UNRECORDED ? System.identityHashCode(o) : provisional(ctx, o);
        }
        if (Header.SHIFT < 0) {
            Integer h = ASSIGNED.get(o);
            if (h != null) {
                return h;
            }
        }
        return assign(ctx, o);
    }

    private static boolean namedClass(Object o) {
        return o instanceof Class<?> c && !c.isHidden();
    }

    /**
     * Once per object: not inlined into the ordering paths that may call it (docs/ARCHITECTURE.md,
     * "Compiled code"). Where the program hashes it (depth 0), a replay first asks whether its
     * recording hashed it inside an event before ({@link ProvisionalHashes}).
     */
    @DontInline
    private static int assign(ThreadCtx ctx, Object o) {
        if (o instanceof String s) {
            return keep(o, stringValue(s));
        }
        Class<?> c = o.getClass();
        String name = stableName(c);
        int count = ctx.hashCounters.next(c);
        int settled = ctx.depth == 0 && !ctx.ev.recording() ? ProvisionalHashes.replayed(ctx, name, count) : 0;
        return keep(o, settled != 0 ? settled : value(ctx, name, count));
    }

    /**
     * Inside an event of a recorded thread: gives unhashed {@code o} a provisional value
     * ({@link #provisionalValue}), and keeps it in {@link #HELD_SPILLS}, so that the program's first
     * hash of {@code o} finds it ({@link #settle}). Where a lock holds the header, the value goes
     * to {@link #ASSIGNED}, as {@link #keep} puts it (an object a library's code locks as it
     * hashes it inside an event: a mock's own monitor). Where no value can be written into any
     * header, the JVM's draw.
     */
    @DontInline
    private static int provisional(ThreadCtx ctx, Object o) {
        if (!Header.INSTALLS) {
            return System.identityHashCode(o);
        }
        int v = ProvisionalHashes.of(provisionalValue(ctx, o.getClass()));
        addHeldSpill(v, 1L << v);
        int held = keep(o, v);
        if (held == v) {
            // Listed once its value is found by others (the table hashes its keys). Another
            // thread's first hash of o just then takes v as o's value for good, as two threads'
            // first hashes race anyway.
            ProvisionalHashes.add(o);
        }
        return held;
    }

    /**
     * The value an object of class {@code c} that {@code ctx}'s thread hashes inside an event
     * takes, before its low bits are fixed: from the thread's count of synchronization events, the
     * class, and how many objects of that class the thread hashed inside events since that count
     * last changed. Events come at the same points of a recording and its replays, and the JDK's
     * live work inside one hashes the same objects in all; Reprise's own work, which differs,
     * shifts only the values of its own classes, and only until the thread's next synchronization
     * event. One count over every class shifted them all: a replay's jar file, filed by the JDK
     * under its provisional value as a resource was opened, then settled to the recording's,
     * other, and the JDK's next lookup of it missed (the Eclipse compiler's parser tables).
     */
    private static int provisionalValue(ThreadCtx ctx, Class<?> c) {
        if (ctx.provisionalEpoch != ctx.syncCount) {
            ctx.provisionalEpoch = ctx.syncCount;
            ctx.provisionalCounters.clear();
        }
        return value(ctx, stableName(c), ctx.syncCount * 0x9E3779B97F4A7C15L + ctx.provisionalCounters.next(c));
    }

    /**
     * The program's first hash, at depth 0, of {@code o}, whose provisional value is {@code p}: the
     * value it keeps from now on, counted as {@link #assign} counts. A recording keeps {@code p}
     * and logs it, a replay takes the logged one, or if its recording gave {@code o} no
     * provisional value, the value {@link #assign} would have given.
     */
    @DontInline
    private static int settle(ThreadCtx ctx, Object o, int p) {
        if (!ProvisionalHashes.remove(o)) {
            return p; // another thread settled it just now
        }
        Class<?> c = o.getClass();
        String name = stableName(c);
        int count = ctx.hashCounters.next(c);
        if (ctx.ev.recording()) {
            ProvisionalHashes.recorded(ctx, name, count, p);
            return p;
        }
        int v = ProvisionalHashes.replayed(ctx, name, count);
        v = v != 0 ? v : value(ctx, name, count);
        ASSIGNED.put(o, v); // found there: p's bit is in HELD_SPILLS
        return v;
    }

    /**
     * Where Reprise itself hashes {@code o}, which has a provisional value ({@link #beforeJvmHash}):
     * the value {@link #assign} would give it, in a recording and its replays alike, as Reprise
     * gives values there at the same points of every run. No event is written there: the network
     * tests' server wrote settlements at a monitor's ordering that its replay never looked for.
     * The program never saw the provisional value.
     */
    private static void replace(ThreadCtx ctx, Object o) {
        if (ProvisionalHashes.remove(o)) {
            Class<?> c = o.getClass();
            ASSIGNED.put(o, value(ctx, stableName(c), ctx.hashCounters.next(c)));
        }
    }

    /** Gives unhashed {@code o} the value {@code v}: in its header, or else in {@link #ASSIGNED}. */
    private static int keep(Object o, int v) {
        if (Header.INSTALLS) {
            int held = install(o, v);
            if (held != NOT_INSTALLED) {
                return held;
            }
            if (Thread.holdsLock(o) || monitorInflated(o)) {
                int jvm = System.identityHashCode(o);
                addHeldSpill(jvm, 1L << jvm);
            } else {
                spilled = true;
            }
        }
        ASSIGNED.put(o, v);
        return v;
    }

    /**
     * Whether {@code o}'s header points to an inflated monitor: until the JVM deflates it, the
     * header shows no hash, and once it does, the hash the JVM gave it; like a held monitor's, so
     * its value is found as a held one's is ({@link #HELD_SPILLS}).
     */
    private static boolean monitorInflated(Object o) {
        try {
            return HeldHeaders.monitorHeader((long) Header.WORD.invokeExact(o, 0L));
        } catch (Throwable e) {
            return false;
        }
    }

    /**
     * Recording, as an unrecorded thread (the JVM's finalizer or a cleaner's thread) enters the
     * first cleanup of stream {@code path}: the identity hash the program sees for it, given now
     * from the path alone if it has none. The program may key a map by
     * {@code Thread.currentThread()} in a cleanup (Jython's interpreter states); Reprise's own
     * table of cleanup threads would otherwise fix a JVM hash on it, other in every run.
     */
    public static int cleanupThread(Thread t, String path) {
        if (Header.SHIFT >= 0 && !mayBeHashedByJvm(t)) {
            return keep(t, value(path, Thread.class.getName(), 0, path.hashCode()));
        }
        return ifHashed(t);
    }

    /**
     * Replay: the thread made to run a cleanup stream, not started yet, takes the hash the
     * recorded cleanup thread showed ({@link #cleanupThread}); 0 (biased locking) leaves it alone.
     */
    public static void cleanupDriver(Thread t, int hash) {
        if (hash != 0 && Header.SHIFT >= 0 && !mayBeHashedByJvm(t)) {
            keep(t, hash);
        }
    }

    /**
     * The value of the next object {@code ctx}'s thread hashes under {@code counted}, named {@code name}.
     * A class initializer's partition comes from its path, not its index: an initializer that
     * logged no event gives its index back in the recording and has none in a replay, yet it may
     * hash objects (an enum's constants), whose values must not differ.
     */
    private static int value(ThreadCtx ctx, String name, long count) {
        int partition = ctx.initializing != null ? ctx.path.hashCode() : ctx.index;
        return value(ctx.path, name, count, partition);
    }

    /** The value of the {@code count}th object named {@code name} that the context of {@code path} hashes, in slot partition {@code partition}. */
    private static int value(String path, String name, long count, int partition) {
        long seed = path.hashCode() * 0x9E3779B97F4A7C15L + name.hashCode();
        return HashPartitions.partitioned(mix(seed * 0xBF58476D1CE4E5B9L + count), partition);
    }

    /**
     * A hidden class was just defined through a {@code Lookup} from class file {@code bytes}, whose
     * {@link HiddenClassNames#contentDigest} is {@code digest}: its value is chosen now, as it is born. The JVM hashes every class
     * as it defines it, and a hidden class's name holds an address, so neither that hash nor the
     * name can be its value: kept, the JVM's made a hash set holding a lambda's class iterate in
     * another order in every replay. The value derives from the name without the JVM's suffixes
     * (its address, and on JDK 17 a count of every lambda class the JVM spun) and from the class
     * file ({@link HiddenClassNames#contentDigest}), nothing of the thread that defines it:
     * threads that first run one method reference at once each spin its class, and which
     * thread's class the JVM keeps is a race (JGit's lock files, {@code corpus.threads.RacingLambdaLinks}).
     * A value from the defining thread made the lambda's objects hash otherwise in a replay where
     * another thread won. Two classes spun from the same bytes take the same value, as two
     * objects may. A class without instance fields (a lambda that captures nothing) has one
     * object that all threads share, and whichever thread hashed it first gave it its value,
     * a race again (JGit's configuration parsers, keys of a map each thread has): its objects
     * take a value from the class's.
     */
    public static void defined(Class<?> c, long digest, byte[] bytes) {
        String stem = HiddenClassNames.stem(c.getName());
        HIDDEN_CLASSES.put(c, value(stem, stem, digest, stem.hashCode()));
        if (!HiddenClassNames.declaresInstanceFields(bytes)) {
            STATELESS.put(c, value(stem, stem + "#object", digest, stem.hashCode()));
        }
    }

    /**
     * The name an object's value derives from: its class's, but for a hidden class (a lambda's),
     * whose name holds an address and a count that differ between runs, the stem and the value the
     * class was given as it was defined, which tells the host's lambdas apart.
     */
    private static String stableName(Class<?> c) {
        String name = c.getName();
        if (name.indexOf('/') < 0) { // only a hidden class's name has a slash
            return name;
        }
        Integer defined = HIDDEN_CLASSES.get(c);
        return defined == null ? HiddenClassNames.stem(name) : HiddenClassNames.stem(name) + '#' + defined;
    }

    /**
     * Writes {@code v} into {@code o}'s header, if it is plain, unlocked and unhashed: a
     * compare-and-set of the whole header word, as the JVM installs its own hashes. Returns the
     * hash the header then holds: {@code v}, or the one another thread installed first (two
     * threads hashing one new object at once: h2's clients did, about one run in four, and each
     * such spill sent every later hash through {@link #ASSIGNED}); retried while the header
     * stays plain and unhashed (a collection may have aged it). {@link #NOT_INSTALLED} if a lock
     * holds the header.
     */
    private static int install(Object o, int v) {
        try {
            while (true) {
                long mark = (long) Header.WORD.invokeExact(o, 0L);
                if (!plain(mark)) {
                    return NOT_INSTALLED;
                }
                int held = hashBits(mark, Header.SHIFT);
                if (held != 0 || (boolean) Header.CAS.invokeExact(o, 0L, mark, withHash(mark, Header.SHIFT, v))) {
                    return held != 0 ? held : v;
                }
            }
        } catch (Throwable e) {
            return NOT_INSTALLED;
        }
    }

    /**
     * Called on a recorded thread, inside one of its events, before Reprise itself asks the JVM for
     * {@code o}'s identity hash (to find its ordering slot): the object gets its deterministic
     * value now, or the JVM's would stick to it. Events happen at the same points of a recording
     * and its replays, so the value is the same in all. The JDK's private classes are no
     * exception (a pool keeps its workers in a HashSet), nor are classes with a hashCode of their
     * own, which may hash by identity all the same (Jython's objects do).
     */
    public static void beforeJvmHash(ThreadCtx ctx, Object o) {
        if (Header.SHIFT < 0 || namedClass(o)) {
            return;
        }
        if (!mayBeHashedByJvm(o)) {
            assign(ctx, o);
            return;
        }
        if (Header.INSTALLS) {
            int jvm = System.identityHashCode(o);
            if ((ProvisionalHashes.marked(jvm) || heldSpill(jvm)) && provisionalOf(o, jvm, ASSIGNED.get(o)) != 0) {
                replace(ctx, o);
            }
        }
    }

    /**
     * {@code o}'s provisional value, or 0 if it has none: in its header ({@code jvm}, no value in
     * {@link #ASSIGNED}) or, where a lock held the header as it got one, in {@link #ASSIGNED}
     * ({@code assigned}). The fixed low bits test both before the look in the list.
     */
    private static int provisionalOf(Object o, int jvm, Integer assigned) {
        int p = assigned != null ? assigned : jvm;
        return ProvisionalHashes.marked(p) && ProvisionalHashes.contains(o) ? p : 0;
    }

    /**
     * Gives {@code o} its deterministic identity hash now, inside an event of the current
     * recorded thread, unless it has one: for an object the JDK hashes live right after (a
     * thread, which starting registers in the JDK's thread containers).
     */
    public static void assignBeforeLiveUse(Object o) {
        if (Rt.active) {
            ThreadCtx ctx = Rt.current();
            if (ctx != ThreadCtx.UNRECORDED) {
                beforeJvmHash(ctx, o);
            }
        }
    }

    /**
     * Gives {@code o} its deterministic identity hash now, unless it has one, before a native
     * method the program reached through reflection hashes it: {@code System.identityHashCode}
     * ({@code identity}), or {@code Object.hashCode}, which only an object whose class hashes by
     * identity reaches. Called under the claim of the program's call, at depth 0 of its thread.
     */
    public static void assignBeforeReflectiveHash(Object o, boolean identity) {
        if (identity || IdentityVerdicts.byIdentity(o.getClass())) {
            assignBeforeLiveUse(o);
        }
    }

    /**
     * A string's value, from its characters, on any thread and at any depth. Interned strings
     * are shared by every thread and by Reprise's own work, and the JDK keys tables by their
     * identity (the method names of {@code PublicMethods}, as {@code getMethods()} gathers a
     * class's methods). Which thread hashes such a string first, and whether inside
     * an event, is a race a replay need not repeat: counted, the string took the value of
     * whichever thread came first. Equal strings share a value, as interned ones are one.
     */
    private static int stringValue(String s) {
        return mix(s.hashCode() * 0xD6E8FEB86659FD93L + s.length() + 0x5851F42D4C957F2DL);
    }

    /** A 31-bit non-zero value, spread like the JVM's own hashes. */
    private static int mix(long z) {
        z = (z ^ (z >>> 33)) * 0xff51afd7ed558ccdL;
        z = (z ^ (z >>> 33)) * 0xc4ceb9fe1a85ec53L;
        int v = (int) (z ^ (z >>> 33)) & 0x7FFFFFFF;
        return v == 0 ? 1 : v;
    }
}
