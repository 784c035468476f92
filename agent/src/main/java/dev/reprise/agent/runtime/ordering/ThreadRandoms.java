package dev.reprise.agent.runtime.ordering;

import dev.reprise.agent.runtime.events.Ev;
import dev.reprise.agent.runtime.events.Rt;
import dev.reprise.agent.runtime.events.ThreadCtx;
import dev.reprise.agent.runtime.jdk.JdkMethods;

import java.lang.invoke.VarHandle;

/**
 * A recorded thread's {@code ThreadLocalRandom} state: its seed, its probe (which cell of a
 * {@code LongAdder} or of a {@code ConcurrentHashMap}'s counter it tries first) and its secondary
 * seed. The JDK draws them at the thread's first use from generators every thread shares, and
 * code branches on whether that use has come yet (a zero probe). Reprise's own work and the
 * JDK's unordered work ({@code SyncActions.quiet}) may be that first use when recording and not
 * when replaying, so each recorded thread gets its state from its path and the run's recorded
 * seed as its context opens, before any of its events.
 */
public final class ThreadRandoms {
    private static final VarHandle SEED = JdkMethods.field(Thread.class, "threadLocalRandomSeed", long.class);
    private static final VarHandle PROBE = JdkMethods.field(Thread.class, "threadLocalRandomProbe", int.class);
    private static final VarHandle SECONDARY_SEED =
            JdkMethods.field(Thread.class, "threadLocalRandomSecondarySeed", int.class);

    /** Written once at start-up, before any recorded thread but main runs. */
    private static long base;
    /** Whether {@link #base} is installed. */
    private static boolean seeded;

    private ThreadRandoms() {
    }

    /**
     * At start-up on main: codes the current thread's state as the JVM left it when recording,
     * and installs the recorded state when replaying.
     */
    public static void code(Ev ev) {
        Thread t = Thread.currentThread();
        SEED.set(t, ev.j((long) SEED.get(t)));
        PROBE.set(t, ev.i((int) PROBE.get(t)));
        SECONDARY_SEED.set(t, ev.i((int) SECONDARY_SEED.get(t)));
    }

    /**
     * At start-up on main, once the recorded seeds are installed: the run's base for per-thread
     * state. Main keeps the state it was recorded with, if it had one.
     */
    public static void seed(long recordedBase, String mainPath) {
        base = recordedBase;
        seeded = true;
        if ((int) PROBE.get(Thread.currentThread()) == 0) {
            init(mainPath);
        }
    }

    /**
     * The current thread's context opened: gives it its state, unless the run's base is not
     * installed yet (main's context opens before; {@link #seed} sees to main).
     */
    static void opened(String path) {
        if (seeded) {
            init(path);
        }
    }

    /** Gives the current thread, whose path is {@code path}, its seed and probe. */
    public static void init(String path) {
        long key = key(path);
        Thread t = Thread.currentThread();
        SEED.set(t, mix64(key));
        int probe = (int) mix64(key + 1);
        PROBE.set(t, probe == 0 ? 1 : probe);
    }

    /**
     * The next secondary seed of the current recorded context: its first value derives from its
     * path like {@link #init}'s, then it advances by the JDK's own xorshift. Inside an event (a
     * depth above the context's base) it is the JDK's live work that draws, which a replay does
     * not run (a host-name lookup's cache is a skip list): that gets a value of its own and leaves
     * the thread's state as the program's draws left it.
     */
    public static int nextSecondarySeed() {
        ThreadCtx ctx = Rt.current();
        if (ctx.depth != ctx.baseDepth) {
            int r = (int) mix64(System.nanoTime());
            return r == 0 ? 1 : r;
        }
        String path = ctx.path;
        Thread t = Thread.currentThread();
        int r = (int) SECONDARY_SEED.get(t);
        if (r != 0) {
            r ^= r << 13;
            r ^= r >>> 17;
            r ^= r << 5;
        } else {
            r = (int) mix64(key(path) + 2);
            r = r == 0 ? 1 : r;
        }
        SECONDARY_SEED.set(t, r);
        return r;
    }

    /**
     * The current thread's probe and secondary seed, packed: what contention in a
     * {@code ConcurrentHashMap}'s counter advances, or a spin in the JDK's concurrency code.
     */
    public static long probes() {
        Thread t = Thread.currentThread();
        return ((long) (int) PROBE.get(t) << 32) | ((int) SECONDARY_SEED.get(t) & 0xFFFFFFFFL);
    }

    /**
     * Puts back what {@link #probes} returned, after work that is not the program's (Reprise's
     * own, or the JDK's unordered work) and may have advanced them differently when recording.
     */
    public static void restore(long probes) {
        Thread t = Thread.currentThread();
        PROBE.set(t, (int) (probes >>> 32));
        SECONDARY_SEED.set(t, (int) probes);
    }

    /**
     * A class initializer's context {@code init} opens on the current thread: keeps the thread's
     * state in it and gives the thread the initializer's own, from its path. Which thread runs an
     * initializer is a race a replay may decide otherwise, and the JDK keeps this state on the
     * thread: what the initializer drew (directly, or through a {@code ConcurrentSkipListMap}'s
     * index levels) would otherwise depend on the thread, and advance that thread's later draws.
     * Before the run's base is installed, both runs make the same start-up in the same order, and
     * the thread's state is left alone.
     */
    public static void enterInit(ThreadCtx init) {
        if (!seeded) {
            return;
        }
        Thread t = Thread.currentThread();
        init.keepsRandoms = true;
        init.outerSeed = (long) SEED.get(t);
        init.outerProbes = probes();
        init(init.path);
        SECONDARY_SEED.set(t, 0);
    }

    /** The initializer of {@code init} ends: the thread gets its own state back. */
    public static void exitInit(ThreadCtx init) {
        if (!init.keepsRandoms) {
            return; // entered before the base was installed
        }
        SEED.set(Thread.currentThread(), init.outerSeed);
        restore(init.outerProbes);
    }

    private static long key(String path) {
        return base ^ path.hashCode() * 0x9E3779B97F4A7C15L;
    }

    private static long mix64(long z) {
        z = (z ^ (z >>> 33)) * 0xff51afd7ed558ccdL;
        z = (z ^ (z >>> 33)) * 0xc4ceb9fe1a85ec53L;
        return z ^ (z >>> 33);
    }
}
