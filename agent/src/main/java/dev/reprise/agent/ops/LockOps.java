package dev.reprise.agent.ops;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.invoke.VarHandle;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

import dev.reprise.agent.runtime.Ev;
import dev.reprise.agent.runtime.JdkMethods;
import dev.reprise.agent.runtime.Op;
import dev.reprise.agent.runtime.Ordered;
import dev.reprise.agent.runtime.ThreadCtx;

/**
 * {@code ReentrantLock} and its conditions, ordered like monitors. The resource is the lock's
 * synchronizer, which its conditions share, so acquisitions by {@code lock} and re-acquisitions
 * after {@code await} are ordered against each other. Attempts that may fail ({@code tryLock},
 * interruptible waits) log their outcome first; on replay a successful attempt waits for its turn
 * and then locks for real, blocking if needed, so it cannot fail where the recording succeeded
 * ({@link Ordered#attempt}).
 */
public final class LockOps {
    private static final String LOCK = "java/util/concurrent/locks/ReentrantLock";
    private static final String CONDITION = "java/util/concurrent/locks/AbstractQueuedSynchronizer$ConditionObject";

    private static final Op ACQUIRE = Op.ordered("lock.acquire");
    private static final Op OUTCOME = Op.named("lock.outcome");
    private static final Op AWAIT = Op.ordered("lock.await");

    private static final MethodHandle LOCK_LIVE = live(ReentrantLock.class, "lock", MethodType.methodType(void.class));
    private static final MethodHandle LOCK_INTERRUPTIBLY_LIVE =
            live(ReentrantLock.class, "lockInterruptibly", MethodType.methodType(void.class));
    private static final MethodHandle TRY_LOCK_LIVE = live(ReentrantLock.class, "tryLock", MethodType.methodType(boolean.class));
    private static final MethodHandle TRY_LOCK_TIMED_LIVE = live(ReentrantLock.class, "tryLock",
            MethodType.methodType(boolean.class, long.class, TimeUnit.class));
    private static final VarHandle SYNC = field(ReentrantLock.class, "sync");

    private static final Class<?> CONDITION_CLASS =
            JdkMethods.jdkClass("java.util.concurrent.locks.AbstractQueuedSynchronizer$ConditionObject");
    private static final MethodHandle AWAIT_NANOS_LIVE = JdkMethods.special(CONDITION_CLASS, "awaitNanos",
            MethodType.methodType(long.class, long.class)).asType(MethodType.methodType(long.class, Object.class, long.class));
    private static final MethodHandle AWAIT_LIVE = JdkMethods.special(CONDITION_CLASS, "await",
            MethodType.methodType(void.class)).asType(MethodType.methodType(void.class, Object.class));
    private static final MethodHandle AWAIT_UNINTERRUPTIBLY_LIVE = JdkMethods.special(CONDITION_CLASS,
            "awaitUninterruptibly", MethodType.methodType(void.class)).asType(MethodType.methodType(void.class, Object.class));
    private static final VarHandle OWNER = outerOf(CONDITION_CLASS);

    private LockOps() {
    }

    private static MethodHandle live(Class<?> c, String name, MethodType type) {
        return JdkMethods.special(c, name, type);
    }

    private static VarHandle field(Class<?> c, String name) {
        try {
            Class<?> type = c.getDeclaredField(name).getType();
            return MethodHandles.privateLookupIn(c, MethodHandles.lookup()).findVarHandle(c, name, type);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The synthetic field holding an inner class's enclosing instance. */
    private static VarHandle outerOf(Class<?> inner) {
        for (java.lang.reflect.Field f : inner.getDeclaredFields()) {
            if (f.isSynthetic() && f.getName().startsWith("this$")) {
                return field(inner, f.getName());
            }
        }
        throw new IllegalStateException("no enclosing instance field in " + inner.getName());
    }

    private static Object syncOf(ReentrantLock lock) {
        return SYNC.get(lock);
    }

    @Prologue(owner = LOCK, method = "lock", desc = "()V")
    public static void lock(ReentrantLock self) throws Throwable {
        ThreadCtx claim = Ordered.beforeLock(ACQUIRE, 0, syncOf(self));
        try {
            LOCK_LIVE.invokeExact(self);
        } finally {
            Ordered.afterMonitor(claim);
        }
    }

    @Prologue(owner = LOCK, method = "lockInterruptibly", desc = "()V")
    public static void lockInterruptibly(ReentrantLock self) throws Throwable {
        attempt(self, () -> {
            LOCK_INTERRUPTIBLY_LIVE.invokeExact(self);
            return true;
        });
    }

    @Prologue(owner = LOCK, method = "tryLock", desc = "()Z")
    public static boolean tryLock(ReentrantLock self) throws Throwable {
        return attempt(self, () -> (boolean) TRY_LOCK_LIVE.invokeExact(self));
    }

    @Prologue(owner = LOCK, method = "tryLock", desc = "(JLjava/util/concurrent/TimeUnit;)Z")
    public static boolean tryLock(ReentrantLock self, long timeout, TimeUnit unit) throws Throwable {
        return attempt(self, () -> (boolean) TRY_LOCK_TIMED_LIVE.invokeExact(self, timeout, unit));
    }

    /** An acquisition that may fail or be interrupted; on replay a success locks for real in its turn. */
    private static boolean attempt(ReentrantLock self, Ordered.Attempt live) throws Throwable {
        return Ordered.attempt(OUTCOME, ACQUIRE, syncOf(self), live, () -> {
            LOCK_LIVE.invokeExact(self);
        });
    }

    @Prologue(owner = CONDITION, method = "await", desc = "()V")
    public static void await(Object condition) throws Throwable {
        awaitTimed(condition, -1, true);
    }

    @Prologue(owner = CONDITION, method = "awaitUninterruptibly", desc = "()V")
    public static void awaitUninterruptibly(Object condition) throws Throwable {
        awaitTimed(condition, -1, false);
    }

    @Prologue(owner = CONDITION, method = "awaitNanos", desc = "(J)J")
    public static long awaitNanos(Object condition, long nanos) throws Throwable {
        return awaitTimed(condition, Math.max(nanos, 0), true);
    }

    @Prologue(owner = CONDITION, method = "await", desc = "(JLjava/util/concurrent/TimeUnit;)Z")
    public static boolean await(Object condition, long time, TimeUnit unit) throws Throwable {
        return awaitTimed(condition, Math.max(unit.toNanos(time), 0), true) > 0;
    }

    /**
     * A condition wait ({@code nanos} < 0: untimed). Recording waits for real, then logs the
     * re-acquisition, holding the lock again, with the remaining time and whether it was
     * interrupted. Replay releases the lock in short real waits until its turn, like
     * {@code Object.wait}.
     */
    private static long awaitTimed(Object condition, long nanos, boolean interruptible) throws Throwable {
        Ev ev = Ev.begin(AWAIT, 0, 0);
        long remaining = 0;
        boolean interrupted = false;
        Object sync = OWNER.get(condition);
        if (ev.recording()) {
            try {
                if (nanos < 0) {
                    if (interruptible) {
                        AWAIT_LIVE.invokeExact(condition);
                    } else {
                        AWAIT_UNINTERRUPTIBLY_LIVE.invokeExact(condition);
                    }
                } else {
                    remaining = (long) AWAIT_NANOS_LIVE.invokeExact(condition, nanos);
                }
            } catch (InterruptedException e) {
                interrupted = true;
            } finally {
                Ordered.recordReacquired(ev, sync);
            }
        } else {
            Ordered.replayReacquire(ev, sync, millis -> {
                long unused = (long) AWAIT_NANOS_LIVE.invokeExact(condition, millis * 1_000_000L);
            });
        }
        remaining = ev.j(remaining);
        interrupted = ev.z(interrupted);
        ev.end();
        if (interrupted) {
            throw new InterruptedException();
        }
        return remaining;
    }
}
