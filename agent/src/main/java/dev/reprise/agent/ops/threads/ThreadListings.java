package dev.reprise.agent.ops.threads;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodType;
import java.lang.management.ThreadInfo;
import java.util.Arrays;

import dev.reprise.agent.ops.CallSite;
import dev.reprise.agent.runtime.jdk.JdkMethods;
import dev.reprise.agent.runtime.jdk.OwnThreads;

/**
 * The JVM's native lists of its threads, without Reprise's own ({@link OwnThreads}): every
 * thread's stack ({@code Thread.getAllStackTraces}, and from JDK 19 the thread groups' listings,
 * which {@code Thread.getAllThreads} makes), the management bean's ids ({@code
 * ThreadMXBean.getAllThreadIds}) and its dump of all threads. No event: the program's threads
 * in a list are those alive at the call, as the JDK has them; only threads the program never
 * sees in a recording's replays, or sees other ones of, are left out.
 */
public final class ThreadListings {
    private static final String THREAD = "java/lang/Thread";
    private static final String MANAGEMENT = "sun/management/ThreadImpl";
    private static final Class<?> THREAD_IMPL = JdkMethods.jdkClass(MANAGEMENT.replace('/', '.'));
    private static final MethodHandle THREADS =
            JdkMethods.statik(Thread.class, "getThreads", MethodType.methodType(Thread[].class));
    private static final MethodHandle MANAGED_THREADS =
            JdkMethods.statik(THREAD_IMPL, "getThreads", MethodType.methodType(Thread[].class));
    private static final MethodHandle DUMP = JdkMethods.statik(THREAD_IMPL, "dumpThreads0",
            MethodType.methodType(ThreadInfo[].class, long[].class, boolean.class, boolean.class, int.class));

    private ThreadListings() {
    }

    @CallSite(kind = CallSite.Kind.STATIC, owner = THREAD, method = "getThreads", desc = "()[Ljava/lang/Thread;",
            alsoIn = THREAD)
    public static Thread[] threads() throws Throwable {
        return withoutOwn((Thread[]) THREADS.invokeExact());
    }

    @CallSite(kind = CallSite.Kind.STATIC, owner = MANAGEMENT, method = "getThreads", desc = "()[Ljava/lang/Thread;",
            alsoIn = MANAGEMENT)
    public static Thread[] managedThreads() throws Throwable {
        return withoutOwn((Thread[]) MANAGED_THREADS.invokeExact());
    }

    /** With no ids, the JVM dumps every thread: the dump is of the program's threads' ids instead. */
    @CallSite(kind = CallSite.Kind.STATIC, owner = MANAGEMENT, method = "dumpThreads0",
            desc = "([JZZI)[Ljava/lang/management/ThreadInfo;", alsoIn = MANAGEMENT)
    public static ThreadInfo[] dump(long[] ids, boolean monitors, boolean synchronizers, int depth) throws Throwable {
        if (ids != null) {
            return (ThreadInfo[]) DUMP.invokeExact(ids, monitors, synchronizers, depth);
        }
        Thread[] threads = withoutOwn((Thread[]) MANAGED_THREADS.invokeExact());
        long[] programs = new long[threads.length];
        for (int i = 0; i < threads.length; i++) {
            programs[i] = threads[i].getId();
        }
        ThreadInfo[] infos = (ThreadInfo[]) DUMP.invokeExact(programs, monitors, synchronizers, depth);
        // A thread that ended between the list and the dump has no entry, as in the JVM's own dump.
        int kept = 0;
        for (ThreadInfo info : infos) {
            if (info != null) {
                infos[kept++] = info;
            }
        }
        return kept == infos.length ? infos : Arrays.copyOf(infos, kept);
    }

    private static Thread[] withoutOwn(Thread[] threads) {
        int kept = 0;
        for (Thread t : threads) {
            if (!OwnThreads.isOwn(t)) {
                threads[kept++] = t;
            }
        }
        return kept == threads.length ? threads : Arrays.copyOf(threads, kept);
    }
}
