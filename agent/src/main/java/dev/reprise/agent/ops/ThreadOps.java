package dev.reprise.agent.ops;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodType;

import dev.reprise.agent.runtime.Ev;
import dev.reprise.agent.runtime.JdkMethods;
import dev.reprise.agent.runtime.Op;
import dev.reprise.agent.runtime.Rt;
import dev.reprise.agent.runtime.Threads;

/**
 * Thread creation: a started thread is named by its creation path and recorded from its first
 * event. A shutdown hook is named when it is registered: the JVM starts it from an unrecorded
 * thread at exit, but it is the program's.
 */
public final class ThreadOps {
    private static final Op START = Op.named("thread.start");
    private static final Op SHUTDOWN_HOOK = Op.named("thread.shutdownhook");
    private static final MethodHandle ADD_HOOK_LIVE =
            JdkMethods.special(Runtime.class, "addShutdownHook", MethodType.methodType(void.class, Thread.class));
    private static final MethodHandle START_LIVE =
            JdkMethods.special(Thread.class, "start", MethodType.methodType(void.class));

    private ThreadOps() {
    }

    @Prologue(owner = "java/lang/Thread", method = "start", desc = "()V")
    public static void start(Thread t) throws Throwable {
        Ev ev = Ev.begin(START, 0, 0);
        try {
            // JDK helper threads (the common cleaner and the like) act for the JVM, not the program.
            if (!t.getClass().getName().equals("jdk.internal.misc.InnocuousThread")) {
                Threads.registerChild(Rt.current(), t);
            }
            START_LIVE.invokeExact(t);
        } catch (Throwable e) {
            throw ev.threw(e);
        } finally {
            ev.end();
        }
    }

    @Prologue(owner = "java/lang/Runtime", method = "addShutdownHook", desc = "(Ljava/lang/Thread;)V")
    public static void addShutdownHook(Runtime self, Thread hook) throws Throwable {
        Ev ev = Ev.begin(SHUTDOWN_HOOK, 0, 0);
        try {
            ADD_HOOK_LIVE.invokeExact(self, hook);
            Threads.registerChild(Rt.current(), hook);
        } catch (Throwable e) {
            throw ev.threw(e);
        } finally {
            ev.end();
        }
    }
}
