package dev.reprise.agent.ops;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodType;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

import dev.reprise.agent.runtime.Ev;
import dev.reprise.agent.runtime.JdkMethods;
import dev.reprise.agent.runtime.Op;
import dev.reprise.agent.runtime.Ordered;
import dev.reprise.agent.runtime.ThreadCtx;

/**
 * {@code CountDownLatch} and {@code Semaphore}. Passing a latch and taking permits are ordered
 * acquisitions on the synchronizer; counting down and releasing are ordered too, so the
 * acquisitions that depend on them follow them. Timed and non-blocking attempts log their
 * outcome; on replay a successful one waits for its turn, then acquires for real (blocking).
 */
public final class SynchronizerOps {
    private static final String LATCH = "java/util/concurrent/CountDownLatch";
    private static final String SEMAPHORE = "java/util/concurrent/Semaphore";

    private static final Op PASS = Op.ordered("latch.await");
    private static final Op COUNT_DOWN = Op.ordered("latch.countdown");
    private static final Op ACQUIRE = Op.ordered("semaphore.acquire");
    private static final Op RELEASE = Op.ordered("semaphore.release");
    private static final Op OUTCOME = Op.named("synchronizer.outcome");

    private static final MethodHandle LATCH_AWAIT =
            JdkMethods.special(CountDownLatch.class, "await", MethodType.methodType(void.class));
    private static final MethodHandle LATCH_AWAIT_TIMED = JdkMethods.special(CountDownLatch.class, "await",
            MethodType.methodType(boolean.class, long.class, TimeUnit.class));
    private static final MethodHandle LATCH_COUNT_DOWN =
            JdkMethods.special(CountDownLatch.class, "countDown", MethodType.methodType(void.class));
    private static final MethodHandle SEM_ACQUIRE =
            JdkMethods.special(Semaphore.class, "acquireUninterruptibly", MethodType.methodType(void.class, int.class));
    private static final MethodHandle SEM_TRY_ACQUIRE = JdkMethods.special(Semaphore.class, "tryAcquire",
            MethodType.methodType(boolean.class, int.class, long.class, TimeUnit.class));
    private static final MethodHandle SEM_RELEASE =
            JdkMethods.special(Semaphore.class, "release", MethodType.methodType(void.class, int.class));

    private SynchronizerOps() {
    }

    @Prologue(owner = LATCH, method = "countDown", desc = "()V")
    public static void countDown(CountDownLatch latch) throws Throwable {
        Ev ev = Ordered.enter(COUNT_DOWN, 0, 0, latch);
        try {
            LATCH_COUNT_DOWN.invokeExact(latch);
        } finally {
            Ordered.exit(ev);
        }
    }

    @Prologue(owner = LATCH, method = "await", desc = "()V")
    public static void await(CountDownLatch latch) throws Throwable {
        Ordered.attempt(OUTCOME, PASS, latch, () -> {
            LATCH_AWAIT.invokeExact(latch);
            return true;
        }, () -> {
            LATCH_AWAIT.invokeExact(latch);
        });
    }

    @Prologue(owner = LATCH, method = "await", desc = "(JLjava/util/concurrent/TimeUnit;)Z")
    public static boolean await(CountDownLatch latch, long timeout, TimeUnit unit) throws Throwable {
        return Ordered.attempt(OUTCOME, PASS, latch, () -> (boolean) LATCH_AWAIT_TIMED.invokeExact(latch, timeout, unit),
                () -> {
            LATCH_AWAIT.invokeExact(latch);
        });
    }

    @Prologue(owner = SEMAPHORE, method = "acquire", desc = "()V")
    public static void acquire(Semaphore s) throws Throwable {
        acquire(s, 1);
    }

    @Prologue(owner = SEMAPHORE, method = "acquire", desc = "(I)V")
    public static void acquire(Semaphore s, int permits) throws Throwable {
        Ordered.attempt(OUTCOME, ACQUIRE, s, () -> {
            s.acquire(permits); // nested: runs live under the held claim
            return true;
        }, () -> {
            SEM_ACQUIRE.invokeExact(s, permits);
        });
    }

    @Prologue(owner = SEMAPHORE, method = "acquireUninterruptibly", desc = "(I)V")
    public static void acquireUninterruptibly(Semaphore s, int permits) throws Throwable {
        ThreadCtx claim = Ordered.beforeLock(ACQUIRE, 0, s);
        try {
            SEM_ACQUIRE.invokeExact(s, permits);
        } finally {
            Ordered.afterMonitor(claim);
        }
    }

    @Prologue(owner = SEMAPHORE, method = "tryAcquire", desc = "()Z")
    public static boolean tryAcquire(Semaphore s) throws Throwable {
        return Ordered.attempt(OUTCOME, ACQUIRE, s, () -> (boolean) SEM_TRY_ACQUIRE.invokeExact(s, 1, 0L, TimeUnit.NANOSECONDS),
                () -> {
            SEM_ACQUIRE.invokeExact(s, 1);
        });
    }

    @Prologue(owner = SEMAPHORE, method = "tryAcquire", desc = "(JLjava/util/concurrent/TimeUnit;)Z")
    public static boolean tryAcquire(Semaphore s, long timeout, TimeUnit unit) throws Throwable {
        return Ordered.attempt(OUTCOME, ACQUIRE, s, () -> (boolean) SEM_TRY_ACQUIRE.invokeExact(s, 1, timeout, unit),
                () -> {
            SEM_ACQUIRE.invokeExact(s, 1);
        });
    }

    @Prologue(owner = SEMAPHORE, method = "release", desc = "(I)V")
    public static void release(Semaphore s, int permits) throws Throwable {
        Ev ev = Ordered.enter(RELEASE, 0, permits, s);
        try {
            SEM_RELEASE.invokeExact(s, permits);
        } finally {
            Ordered.exit(ev);
        }
    }
}
