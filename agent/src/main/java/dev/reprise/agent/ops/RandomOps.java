package dev.reprise.agent.ops;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.invoke.VarHandle;
import java.security.SecureRandom;

import dev.reprise.agent.runtime.Ev;
import dev.reprise.agent.runtime.JdkMethods;
import dev.reprise.agent.runtime.Op;
import dev.reprise.agent.runtime.Rt;

/**
 * Entropy. {@code SecureRandom} is hooked where every algorithm delivers its bytes, so replay
 * needs neither /dev/urandom nor the provider's seeding. Clock-seeded generators ({@code new
 * Random()}, {@code Math.random}, {@code Collections.shuffle}, {@code ThreadLocalRandom},
 * {@code SplittableRandom}) are covered by the clock hooks in their classes and by the seed state
 * captured at start-up ({@link StartupState}). A thread's {@code ThreadLocalRandom} state is
 * drawn, at its first use, from generators every thread shares, which the JDK's own unordered
 * work advances too ({@code SyncActions.quiet}): the values each thread drew are recorded.
 */
public final class RandomOps {
    private static final Op NEXT_BYTES = Op.named("random.secure.bytes");
    private static final Op SEED = Op.named("random.secure.seed");
    private static final Op UNIQUIFIER = Op.named("random.uniquifier");
    private static final MethodHandle UNIQUIFIER_LIVE =
            JdkMethods.statik(java.util.Random.class, "seedUniquifier", MethodType.methodType(long.class));
    private static final MethodHandle NEXT_BYTES_LIVE =
            JdkMethods.special(SecureRandom.class, "nextBytes", MethodType.methodType(void.class, byte[].class));
    private static final MethodHandle SEED_LIVE =
            JdkMethods.special(SecureRandom.class, "generateSeed", MethodType.methodType(byte[].class, int.class));

    private static final Op THREAD_INIT = Op.named("random.thread.init");
    private static final Op THREAD_SECONDARY = Op.named("random.thread.secondary");
    private static final Class<?> THREAD_RANDOM = java.util.concurrent.ThreadLocalRandom.class;
    private static final MethodHandle LOCAL_INIT_LIVE =
            JdkMethods.statik(THREAD_RANDOM, "localInit", MethodType.methodType(void.class));
    private static final MethodHandle SECONDARY_LIVE =
            JdkMethods.statik(THREAD_RANDOM, "nextSecondarySeed", MethodType.methodType(int.class));
    private static final VarHandle THREAD_SEED = threadField("threadLocalRandomSeed", long.class);
    private static final VarHandle THREAD_PROBE = threadField("threadLocalRandomProbe", int.class);
    private static final VarHandle THREAD_SECONDARY_SEED = threadField("threadLocalRandomSecondarySeed", int.class);

    private RandomOps() {
    }

    private static VarHandle threadField(String name, Class<?> type) {
        try {
            return MethodHandles.privateLookupIn(Thread.class, MethodHandles.lookup()).findVarHandle(Thread.class, name, type);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot reach Thread." + name, e);
        }
    }

    /** A thread's first {@code ThreadLocalRandom} use: its seed and probe as drawn when recorded. */
    @Prologue(owner = "java/util/concurrent/ThreadLocalRandom", method = "localInit", desc = "()V")
    public static void threadLocalInit() throws Throwable {
        Ev ev = Ev.begin(THREAD_INIT, 0, 0);
        try {
            LOCAL_INIT_LIVE.invokeExact();
            Thread t = Thread.currentThread();
            THREAD_SEED.set(t, ev.j((long) THREAD_SEED.get(t)));
            THREAD_PROBE.set(t, ev.i((int) THREAD_PROBE.get(t)));
        } finally {
            ev.end();
        }
    }

    /**
     * The secondary seed that the JDK's concurrency code spins and probes with: drawn from the
     * shared generator at a thread's first use (an event), then advanced by the thread alone.
     */
    @Prologue(owner = "java/util/concurrent/ThreadLocalRandom", method = "nextSecondarySeed", desc = "()I")
    public static int nextSecondarySeed() throws Throwable {
        Thread t = Thread.currentThread();
        if ((int) THREAD_SECONDARY_SEED.get(t) != 0) {
            int r = (int) SECONDARY_LIVE.invokeExact();
            Rt.release();
            return r;
        }
        Ev ev = Ev.begin(THREAD_SECONDARY, 0, 0);
        try {
            int r = ev.i((int) SECONDARY_LIVE.invokeExact());
            THREAD_SECONDARY_SEED.set(t, r);
            return r;
        } finally {
            ev.end();
        }
    }

    @Prologue(owner = "java/security/SecureRandom", method = "nextBytes", desc = "([B)V")
    public static void nextBytes(SecureRandom self, byte[] bytes) throws Throwable {
        Ev ev = Ev.begin(NEXT_BYTES, 0, bytes == null ? 0 : bytes.length);
        try {
            if (ev.live()) {
                NEXT_BYTES_LIVE.invokeExact(self, bytes);
            }
            ev.fill(bytes, 0, bytes.length);
        } catch (Throwable t) {
            throw ev.threw(t);
        } finally {
            ev.end();
        }
    }

    /**
     * {@code new Random()} mixes the clock with a shared sequence that threads advance in whatever
     * order they construct generators: each thread's value is logged.
     */
    @Prologue(owner = "java/util/Random", method = "seedUniquifier", desc = "()J")
    public static long seedUniquifier() throws Throwable {
        Ev ev = Ev.begin(UNIQUIFIER, 0, 0);
        try {
            return ev.j(ev.live() ? (long) UNIQUIFIER_LIVE.invokeExact() : 0);
        } finally {
            ev.end();
        }
    }

    @Prologue(owner = "java/security/SecureRandom", method = "generateSeed", desc = "(I)[B")
    public static byte[] generateSeed(SecureRandom self, int n) throws Throwable {
        Ev ev = Ev.begin(SEED, 0, n);
        try {
            return ev.blob(ev.live() ? (byte[]) SEED_LIVE.invokeExact(self, n) : null);
        } catch (Throwable t) {
            throw ev.threw(t);
        } finally {
            ev.end();
        }
    }
}
