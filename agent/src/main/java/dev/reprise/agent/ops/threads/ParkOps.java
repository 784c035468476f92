package dev.reprise.agent.ops.threads;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodType;
import java.util.concurrent.locks.LockSupport;

import dev.reprise.agent.ops.CallSite;
import dev.reprise.agent.ops.Prologue;
import dev.reprise.agent.runtime.events.Ev;
import dev.reprise.agent.runtime.events.Op;
import dev.reprise.agent.runtime.events.Rt;
import dev.reprise.agent.runtime.events.Session;
import dev.reprise.agent.runtime.jdk.JdkMethods;
import dev.reprise.agent.runtime.ordering.Ordered;
import dev.reprise.agent.runtime.ordering.SyncActions;

/**
 * {@code LockSupport}: the blocking primitive under every {@code java.util.concurrent} wait.
 * Unparking a thread is an ordered operation on that thread; returning from a park is an ordered
 * event on the parked thread, logged after it returned, so it follows the unpark (or interrupt)
 * that released it. Replay does not park: the return waits for its recorded turn, whatever
 * released it then (a timeout, a spurious wake-up) included. Unparks stay real on replay, as
 * Reprise's own live waits inside intercepted calls (a lock taken for real) may need them; a
 * surplus permit only wakes a wait that re-checks its condition.
 */
public final class ParkOps {
    private static final String LOCK_SUPPORT = "java/util/concurrent/locks/LockSupport";
    private static final Op PARKED = Op.withRelaxedTwin("thread.parked");
    private static final Op UNPARK = Op.withRelaxedTwin("thread.unpark");

    private static final MethodHandle PARK = live("park", MethodType.methodType(void.class));
    private static final MethodHandle PARK_BLOCKER = live("park", MethodType.methodType(void.class, Object.class));
    private static final MethodHandle PARK_NANOS = live("parkNanos", MethodType.methodType(void.class, long.class));
    private static final MethodHandle PARK_NANOS_BLOCKER =
            live("parkNanos", MethodType.methodType(void.class, Object.class, long.class));
    private static final MethodHandle PARK_UNTIL = live("parkUntil", MethodType.methodType(void.class, long.class));
    private static final MethodHandle PARK_UNTIL_BLOCKER =
            live("parkUntil", MethodType.methodType(void.class, Object.class, long.class));
    private static final MethodHandle UNPARK_LIVE = live("unpark", MethodType.methodType(void.class, Thread.class));
    /** {@code (Object unsafe, boolean absolute, long time)void}. */
    private static final MethodHandle UNSAFE_PARK = JdkMethods.special(JdkMethods.jdkClass("jdk.internal.misc.Unsafe"),
            "park", MethodType.methodType(void.class, boolean.class, long.class))
            .asType(MethodType.methodType(void.class, Object.class, boolean.class, long.class));

    private ParkOps() {
    }

    private static MethodHandle live(String name, MethodType type) {
        return JdkMethods.statik(LockSupport.class, name, type);
    }

    @Prologue(owner = LOCK_SUPPORT, method = "park", desc = "()V")
    public static void park() throws Throwable {
        boolean quiet = SyncActions.quietNow();
        if (quiet || !Session.current().replaying()) {
            PARK.invokeExact();
        }
        returned(quiet);
    }

    @Prologue(owner = LOCK_SUPPORT, method = "park", desc = "(Ljava/lang/Object;)V")
    public static void park(Object blocker) throws Throwable {
        boolean quiet = SyncActions.quietNow();
        if (quiet || !Session.current().replaying()) {
            PARK_BLOCKER.invokeExact(blocker);
        }
        returned(quiet);
    }

    @Prologue(owner = LOCK_SUPPORT, method = "parkNanos", desc = "(J)V")
    public static void parkNanos(long nanos) throws Throwable {
        boolean quiet = SyncActions.quietNow();
        if (quiet || !Session.current().replaying()) {
            PARK_NANOS.invokeExact(nanos);
        }
        returned(quiet);
    }

    @Prologue(owner = LOCK_SUPPORT, method = "parkNanos", desc = "(Ljava/lang/Object;J)V")
    public static void parkNanos(Object blocker, long nanos) throws Throwable {
        boolean quiet = SyncActions.quietNow();
        if (quiet || !Session.current().replaying()) {
            PARK_NANOS_BLOCKER.invokeExact(blocker, nanos);
        }
        returned(quiet);
    }

    @Prologue(owner = LOCK_SUPPORT, method = "parkUntil", desc = "(J)V")
    public static void parkUntil(long deadline) throws Throwable {
        boolean quiet = SyncActions.quietNow();
        if (quiet || !Session.current().replaying()) {
            PARK_UNTIL.invokeExact(deadline);
        }
        returned(quiet);
    }

    @Prologue(owner = LOCK_SUPPORT, method = "parkUntil", desc = "(Ljava/lang/Object;J)V")
    public static void parkUntil(Object blocker, long deadline) throws Throwable {
        boolean quiet = SyncActions.quietNow();
        if (quiet || !Session.current().replaying()) {
            PARK_UNTIL_BLOCKER.invokeExact(blocker, deadline);
        }
        returned(quiet);
    }

    /**
     * JDK 21+: a few waits park through {@code Unsafe} itself: an idle ForkJoinPool worker (JDK 25
     * and its delay scheduler), and AbstractQueuedSynchronizer's back-off when out of memory.
     */
    @CallSite(kind = CallSite.Kind.VIRTUAL, owner = "jdk/internal/misc/Unsafe", method = "park", desc = "(ZJ)V",
            alsoIn = {"java/util/concurrent/ForkJoinPool", "java/util/concurrent/DelayScheduler",
                    "java/util/concurrent/locks/AbstractQueuedSynchronizer",
                    "java/util/concurrent/locks/AbstractQueuedLongSynchronizer"})
    public static void unsafePark(Object unsafe, boolean absolute, long time, int site) throws Throwable {
        if (!Rt.claim()) {
            UNSAFE_PARK.invokeExact(unsafe, absolute, time);
            return;
        }
        boolean quiet = SyncActions.quietNow();
        if (quiet || !Session.current().replaying()) {
            UNSAFE_PARK.invokeExact(unsafe, absolute, time);
        }
        returned(quiet);
    }

    /**
     * The park returned (recording) or its turn to return has come (replay). A quiet park (inside
     * the JDK's own call into java.util.concurrent) parked live and is no event.
     */
    private static void returned(boolean quiet) {
        if (quiet) {
            Rt.release();
            return;
        }
        Ordered.exit(Ordered.enter(PARKED, 0, 0, Thread.currentThread()));
    }

    @Prologue(owner = LOCK_SUPPORT, method = "unpark", desc = "(Ljava/lang/Thread;)V")
    public static void unpark(Thread thread) throws Throwable {
        if (thread == null || SyncActions.quietNow()) {
            UNPARK_LIVE.invokeExact(thread); // nothing to unpark, or quiet: live, no event
            Rt.release();
            return;
        }
        Ev ev = Ordered.enter(UNPARK, 0, 0, thread);
        try {
            UNPARK_LIVE.invokeExact(thread);
        } finally {
            Ordered.exit(ev);
        }
    }
}
