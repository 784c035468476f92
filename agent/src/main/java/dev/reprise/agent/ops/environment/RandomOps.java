package dev.reprise.agent.ops.environment;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodType;
import java.security.SecureRandom;

import dev.reprise.agent.ops.CallSite;
import dev.reprise.agent.ops.Prologue;
import dev.reprise.agent.runtime.events.Ev;
import dev.reprise.agent.runtime.events.Op;
import dev.reprise.agent.runtime.events.Rt;
import dev.reprise.agent.runtime.jdk.JdkMethods;
import dev.reprise.agent.runtime.ordering.ThreadRandoms;

/**
 * Entropy. {@code SecureRandom} is hooked where every algorithm delivers its bytes, so replay
 * needs neither /dev/urandom nor the provider's seeding. Clock-seeded generators ({@code new
 * Random()}, {@code Math.random}, {@code Collections.shuffle}, {@code ThreadLocalRandom},
 * {@code SplittableRandom}) are covered by the clock hooks in their classes and by the seed state
 * captured at start-up ({@link StartupState}). A thread's {@code ThreadLocalRandom} state, which
 * the JDK draws at the thread's first use from generators every thread shares (and the JDK's own
 * unordered work advances too, {@code SyncActions.quiet}), is derived from the thread's path
 * ({@link ThreadRandoms}).
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

    private RandomOps() {
    }

    /**
     * A thread's first {@code ThreadLocalRandom} use: its seed and probe derive from its path and
     * the run's recorded seed ({@link ThreadRandoms}), not from the shared generators, whose state
     * depends on when each thread (and the JDK's own unordered work, and Reprise's) drew from
     * them. A recorded thread has its state before its first event; should the JDK ask again, it
     * gets the same, never a draw from the shared generators.
     */
    @Prologue(owner = "java/util/concurrent/ThreadLocalRandom", method = "localInit", desc = "()V", kind = Prologue.Kind.ANY_DEPTH)
    public static void threadLocalInit() {
        ThreadRandoms.init(Rt.threadPath());
    }

    /** The secondary seed the JDK's concurrency code spins and probes with ({@link ThreadRandoms#nextSecondarySeed}). */
    @Prologue(owner = "java/util/concurrent/ThreadLocalRandom", method = "nextSecondarySeed", desc = "()I",
            kind = Prologue.Kind.ANY_DEPTH)
    public static int nextSecondarySeed() {
        return ThreadRandoms.nextSecondarySeed();
    }

    /**
     * On JDK 25 a virtual thread's probe is its carrier's: {@code getProbe} and
     * {@code advanceProbe} read and write the field of the platform thread it is mounted on, and
     * which carrier runs it when is the scheduler's race, which replay does not repeat (a
     * {@code LongAdder} or a {@code ConcurrentHashMap} counter then picks other cells, in other
     * numbers of actions). In {@code ThreadLocalRandom} the carrier is the current thread itself,
     * so a virtual thread keeps the probe its path gave it, as a platform thread does. No event,
     * so no claim: the probe is only which cell to try first, for any thread.
     */
    @CallSite(kind = CallSite.Kind.VIRTUAL, owner = "jdk/internal/access/JavaLangAccess",
            method = "currentCarrierThread", desc = "()Ljava/lang/Thread;",
            alsoIn = "java/util/concurrent/ThreadLocalRandom")
    public static Thread probeCarrier(Object access) {
        return Thread.currentThread();
    }

    @Prologue(owner = "java/security/SecureRandom", method = "nextBytes", desc = "([B)V")
    public static void nextBytes(SecureRandom self, byte[] bytes) throws Throwable {
        Ev ev = Ev.begin(NEXT_BYTES, 0, bytes == null ? 0 : bytes.length);
        if (ev.live()) {
            NEXT_BYTES_LIVE.invokeExact(self, bytes);
        }
        ev.fill(bytes, 0, bytes.length);
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
        return ev.blob(ev.live() ? (byte[]) SEED_LIVE.invokeExact(self, n) : null);
    }
}
