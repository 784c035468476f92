package dev.reprise.agent.ops;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodType;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import dev.reprise.agent.runtime.Ev;
import dev.reprise.agent.runtime.JdkMethods;
import dev.reprise.agent.runtime.Op;
import dev.reprise.agent.runtime.Ordered;
import dev.reprise.agent.runtime.Rt;

/**
 * {@code FutureTask} (what executors return): completing the task is an ordered operation on the
 * future, and {@code get} an acquisition ordered after it. {@code get} logs its outcome (done,
 * timed out, interrupted); on replay a done {@code get} waits for its turn, when the task has
 * completed again, and then takes the value for real.
 */
public final class FutureOps {
    private static final String FUTURE = "java/util/concurrent/FutureTask";
    private static final Op COMPLETE = Op.ordered("future.complete");
    private static final Op GET = Op.ordered("future.get");
    private static final Op OUTCOME = Op.named("future.outcome");
    private static final int DONE = 1;
    private static final int TIMED_OUT = 2;
    private static final int INTERRUPTED = 3;

    private static final MethodHandle GET_LIVE =
            JdkMethods.special(FutureTask.class, "get", MethodType.methodType(Object.class));
    private static final MethodHandle GET_TIMED_LIVE = JdkMethods.special(FutureTask.class, "get",
            MethodType.methodType(Object.class, long.class, TimeUnit.class));
    private static final MethodHandle SET_LIVE =
            JdkMethods.special(FutureTask.class, "set", MethodType.methodType(void.class, Object.class));
    private static final MethodHandle SET_EXCEPTION_LIVE =
            JdkMethods.special(FutureTask.class, "setException", MethodType.methodType(void.class, Throwable.class));

    private FutureOps() {
    }

    @Prologue(owner = FUTURE, method = "set", desc = "(Ljava/lang/Object;)V")
    public static void set(FutureTask<?> f, Object value) throws Throwable {
        Ev ev = Ordered.enter(COMPLETE, 0, 0, f);
        try {
            SET_LIVE.invokeExact(f, value);
        } finally {
            Ordered.exit(ev);
        }
    }

    @Prologue(owner = FUTURE, method = "setException", desc = "(Ljava/lang/Throwable;)V")
    public static void setException(FutureTask<?> f, Throwable t) throws Throwable {
        Ev ev = Ordered.enter(COMPLETE, 0, 1, f);
        try {
            SET_EXCEPTION_LIVE.invokeExact(f, t);
        } finally {
            Ordered.exit(ev);
        }
    }

    @Prologue(owner = FUTURE, method = "get", desc = "()Ljava/lang/Object;")
    public static Object get(FutureTask<?> f) throws Throwable {
        return await(f, -1, null);
    }

    @Prologue(owner = FUTURE, method = "get", desc = "(JLjava/util/concurrent/TimeUnit;)Ljava/lang/Object;")
    public static Object get(FutureTask<?> f, long timeout, TimeUnit unit) throws Throwable {
        return await(f, Math.max(timeout, 0), unit);
    }

    private static Object await(FutureTask<?> f, long timeout, TimeUnit unit) throws Throwable {
        Ev ev = Ev.begin(OUTCOME, 0, 0);
        Object value = null;
        Throwable failure = null;
        int outcome = 0;
        if (ev.live()) {
            try {
                value = unit == null ? (Object) GET_LIVE.invokeExact(f) : (Object) GET_TIMED_LIVE.invokeExact(f, timeout, unit);
                outcome = DONE;
            } catch (TimeoutException e) {
                outcome = TIMED_OUT;
            } catch (InterruptedException e) {
                outcome = INTERRUPTED;
            } catch (Throwable t) {
                failure = t; // the task's own failure or cancellation: the future is done
                outcome = DONE;
            }
        }
        outcome = ev.i(outcome);
        ev.end();
        if (outcome == TIMED_OUT) {
            throw new TimeoutException();
        } else if (outcome == INTERRUPTED) {
            throw new InterruptedException();
        }
        Ordered.succeeded(GET, 0, f, () -> { });
        if (!ev.recording()) {
            Rt.suppress(); // the real get is part of this operation, not an event of its own
            try {
                return (Object) GET_LIVE.invokeExact(f); // done by now: returns or throws at once
            } finally {
                Rt.unsuppress();
            }
        }
        if (failure != null) {
            throw failure;
        }
        return value;
    }
}
