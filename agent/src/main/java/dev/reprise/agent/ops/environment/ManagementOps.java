package dev.reprise.agent.ops.environment;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodType;
import java.lang.management.MemoryUsage;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import dev.reprise.agent.ops.Prologue;
import dev.reprise.agent.runtime.events.Ev;
import dev.reprise.agent.runtime.events.Op;
import dev.reprise.agent.runtime.jdk.JdkMethods;

/**
 * The process's figures as {@code java.lang.management} gives them: the runtime's name (the PID
 * and the host name, which programs use to name their temporary directories), uptime, start time
 * and the JVM's arguments (a replay's JVM has others), a thread's CPU times, the memory in use,
 * the counts of threads and classes (Reprise's own threads and classes are among the JVM's, and
 * differ between a recording and its replays) and the compilers' time. Hooked in the beans'
 * implementations in {@code sun.management}, above the natives they call.
 */
public final class ManagementOps {
    private static final String RUNTIME = "sun/management/RuntimeImpl";
    private static final String THREADS = "sun/management/ThreadImpl";
    private static final String MEMORY = "sun/management/MemoryImpl";
    private static final String CLASSES = "sun/management/ClassLoadingImpl";
    private static final String COMPILATION = "sun/management/CompilationImpl";
    private static final Op NAME = Op.named("management.name");
    private static final Op CLOCK = Op.named("management.clock");
    private static final Op ARGUMENTS = Op.named("management.arguments");
    private static final Op CPU = Op.named("management.cpu");
    private static final Op HEAP = Op.named("management.memory");
    private static final Op COUNT = Op.named("management.count");

    private static final Class<?> RUNTIME_IMPL = JdkMethods.jdkClass(RUNTIME.replace('/', '.'));
    private static final Class<?> THREAD_IMPL = JdkMethods.jdkClass(THREADS.replace('/', '.'));
    private static final Class<?> MEMORY_IMPL = JdkMethods.jdkClass(MEMORY.replace('/', '.'));
    private static final Class<?> CLASSES_IMPL = JdkMethods.jdkClass(CLASSES.replace('/', '.'));
    private static final Class<?> COMPILATION_IMPL = JdkMethods.jdkClass(COMPILATION.replace('/', '.'));
    private static final MethodHandle NAME_LIVE = live(RUNTIME_IMPL, "getName", String.class);
    private static final MethodHandle UPTIME_LIVE = live(RUNTIME_IMPL, "getUptime", long.class);
    private static final MethodHandle START_LIVE = live(RUNTIME_IMPL, "getStartTime", long.class);
    private static final MethodHandle ARGUMENTS_LIVE = live(RUNTIME_IMPL, "getInputArguments", List.class);
    private static final MethodHandle OWN_CPU_LIVE = live(THREAD_IMPL, "getCurrentThreadCpuTime", long.class);
    private static final MethodHandle OWN_USER_LIVE = live(THREAD_IMPL, "getCurrentThreadUserTime", long.class);
    private static final MethodHandle CPU_LIVE = live(THREAD_IMPL, "getThreadCpuTime", long.class, long.class);
    private static final MethodHandle USER_LIVE = live(THREAD_IMPL, "getThreadUserTime", long.class, long.class);
    private static final MethodHandle HEAP_LIVE = live(MEMORY_IMPL, "getHeapMemoryUsage", MemoryUsage.class);
    private static final MethodHandle NON_HEAP_LIVE = live(MEMORY_IMPL, "getNonHeapMemoryUsage", MemoryUsage.class);
    // The int counts as figures: widened to long, coded as ev.i codes an int.
    private static final MethodHandle THREADS_LIVE = count(THREAD_IMPL, "getThreadCount");
    private static final MethodHandle PEAK_LIVE = count(THREAD_IMPL, "getPeakThreadCount");
    private static final MethodHandle DAEMONS_LIVE = count(THREAD_IMPL, "getDaemonThreadCount");
    private static final MethodHandle STARTED_LIVE = live(THREAD_IMPL, "getTotalStartedThreadCount", long.class);
    private static final MethodHandle LOADED_LIVE = count(CLASSES_IMPL, "getLoadedClassCount");
    private static final MethodHandle TOTAL_LOADED_LIVE = live(CLASSES_IMPL, "getTotalLoadedClassCount", long.class);
    private static final MethodHandle UNLOADED_LIVE = live(CLASSES_IMPL, "getUnloadedClassCount", long.class);
    private static final MethodHandle JIT_TIME_LIVE = live(COMPILATION_IMPL, "getTotalCompilationTime", long.class);

    private ManagementOps() {
    }

    @Prologue(owner = RUNTIME, method = "getName", desc = "()Ljava/lang/String;")
    public static String name(Object bean) throws Throwable {
        Ev ev = Ev.begin(NAME, 0, 0);
        return ev.s(ev.live() ? (String) NAME_LIVE.invokeExact(bean) : null);
    }

    @Prologue(owner = RUNTIME, method = "getUptime", desc = "()J")
    public static long uptime(Object bean) throws Throwable {
        return figure(CLOCK, 0, UPTIME_LIVE, bean);
    }

    @Prologue(owner = RUNTIME, method = "getStartTime", desc = "()J")
    public static long startTime(Object bean) throws Throwable {
        return figure(CLOCK, 1, START_LIVE, bean);
    }

    @Prologue(owner = RUNTIME, method = "getInputArguments", desc = "()Ljava/util/List;")
    public static List<String> inputArguments(Object bean) throws Throwable {
        Ev ev = Ev.begin(ARGUMENTS, 0, 0);
        @SuppressWarnings("unchecked")
        List<String> live = ev.live() ? OwnCommandLine.without((List<String>) ARGUMENTS_LIVE.invokeExact(bean)) : List.of();
        int n = ev.i(live.size());
        List<String> args = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            args.add(ev.s(ev.live() ? live.get(i) : null));
        }
        return ev.live() ? live : Collections.unmodifiableList(args);
    }

    @Prologue(owner = THREADS, method = "getCurrentThreadCpuTime", desc = "()J")
    public static long ownCpuTime(Object bean) throws Throwable {
        return figure(CPU, 0, OWN_CPU_LIVE, bean);
    }

    @Prologue(owner = THREADS, method = "getCurrentThreadUserTime", desc = "()J")
    public static long ownUserTime(Object bean) throws Throwable {
        return figure(CPU, 1, OWN_USER_LIVE, bean);
    }

    @Prologue(owner = THREADS, method = "getThreadCpuTime", desc = "(J)J")
    public static long cpuTime(Object bean, long thread) throws Throwable {
        return threadFigure(2, CPU_LIVE, bean, thread);
    }

    @Prologue(owner = THREADS, method = "getThreadUserTime", desc = "(J)J")
    public static long userTime(Object bean, long thread) throws Throwable {
        return threadFigure(3, USER_LIVE, bean, thread);
    }

    @Prologue(owner = MEMORY, method = "getHeapMemoryUsage", desc = "()Ljava/lang/management/MemoryUsage;")
    public static MemoryUsage heap(Object bean) throws Throwable {
        return usage(bean, HEAP_LIVE, 0);
    }

    @Prologue(owner = MEMORY, method = "getNonHeapMemoryUsage", desc = "()Ljava/lang/management/MemoryUsage;")
    public static MemoryUsage nonHeap(Object bean) throws Throwable {
        return usage(bean, NON_HEAP_LIVE, 1);
    }

    @Prologue(owner = THREADS, method = "getThreadCount", desc = "()I")
    public static int threadCount(Object bean) throws Throwable {
        return (int) figure(COUNT, 0, THREADS_LIVE, bean);
    }

    @Prologue(owner = THREADS, method = "getPeakThreadCount", desc = "()I")
    public static int peakThreadCount(Object bean) throws Throwable {
        return (int) figure(COUNT, 1, PEAK_LIVE, bean);
    }

    @Prologue(owner = THREADS, method = "getDaemonThreadCount", desc = "()I")
    public static int daemonThreadCount(Object bean) throws Throwable {
        return (int) figure(COUNT, 2, DAEMONS_LIVE, bean);
    }

    @Prologue(owner = THREADS, method = "getTotalStartedThreadCount", desc = "()J")
    public static long startedThreadCount(Object bean) throws Throwable {
        return figure(COUNT, 3, STARTED_LIVE, bean);
    }

    @Prologue(owner = CLASSES, method = "getLoadedClassCount", desc = "()I")
    public static int loadedClassCount(Object bean) throws Throwable {
        return (int) figure(COUNT, 4, LOADED_LIVE, bean);
    }

    @Prologue(owner = CLASSES, method = "getTotalLoadedClassCount", desc = "()J")
    public static long totalLoadedClassCount(Object bean) throws Throwable {
        return figure(COUNT, 5, TOTAL_LOADED_LIVE, bean);
    }

    @Prologue(owner = CLASSES, method = "getUnloadedClassCount", desc = "()J")
    public static long unloadedClassCount(Object bean) throws Throwable {
        return figure(COUNT, 6, UNLOADED_LIVE, bean);
    }

    @Prologue(owner = COMPILATION, method = "getTotalCompilationTime", desc = "()J")
    public static long compilationTime(Object bean) throws Throwable {
        return figure(COUNT, 7, JIT_TIME_LIVE, bean);
    }

    /** A figure the bean reads with no argument. */
    private static long figure(Op op, int which, MethodHandle jdk, Object bean) throws Throwable {
        Ev ev = Ev.begin(op, 0, which);
        return ev.j(ev.live() ? (long) jdk.invokeExact(bean) : 0);
    }

    /** A CPU figure of the thread with id {@code thread}. */
    private static long threadFigure(int which, MethodHandle jdk, Object bean, long thread) throws Throwable {
        Ev ev = Ev.begin(CPU, 0, which);
        return ev.j(ev.live() ? (long) jdk.invokeExact(bean, thread) : 0);
    }

    private static MemoryUsage usage(Object bean, MethodHandle jdk, int which) throws Throwable {
        Ev ev = Ev.begin(HEAP, 0, which);
        MemoryUsage live = ev.live() ? (MemoryUsage) jdk.invokeExact(bean) : null;
        long init = ev.j(live == null ? 0 : live.getInit());
        long used = ev.j(live == null ? 0 : live.getUsed());
        long committed = ev.j(live == null ? 0 : live.getCommitted());
        long max = ev.j(live == null ? 0 : live.getMax());
        return live != null ? live : new MemoryUsage(init, used, committed, max);
    }

    /** An int count's getter, its result widened to long, as {@link #figure} takes it. */
    private static MethodHandle count(Class<?> owner, String name) {
        MethodHandle h = live(owner, name, int.class);
        return h.asType(h.type().changeReturnType(long.class));
    }

    private static MethodHandle live(Class<?> owner, String name, Class<?> returned, Class<?>... params) {
        MethodHandle h = JdkMethods.special(owner, name, MethodType.methodType(returned, params));
        return h.asType(h.type().changeParameterType(0, Object.class));
    }
}
