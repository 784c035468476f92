package dev.reprise.agent.ops.environment;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodType;

import dev.reprise.agent.ops.Prologue;
import dev.reprise.agent.runtime.events.Ev;
import dev.reprise.agent.runtime.events.Op;
import dev.reprise.agent.runtime.jdk.JdkMethods;

/**
 * The machine's and the process's figures as the operating-system bean gives them
 * ({@code com.sun.management.OperatingSystemMXBean}): CPU load and time, the load average, memory
 * and swap, open file descriptors. A program watching its own health branches on them (a cluster
 * member logs a warning when the process's CPU load passes a threshold, which a recording's slower
 * run passes more often), and a replay's machine has others. Hooked in the bean's implementation,
 * above the natives it calls, so that the program's calls through the interface, a proxy or
 * reflection all meet the hook.
 */
public final class OperatingSystemOps {
    private static final String OS = "com/sun/management/internal/OperatingSystemImpl";
    private static final String BASE = "sun/management/BaseOperatingSystemImpl";
    private static final Op FIGURE = Op.named("management.os");

    private static final Class<?> OS_IMPL = JdkMethods.jdkClass(OS.replace('/', '.'));
    private static final Class<?> BASE_IMPL = JdkMethods.jdkClass(BASE.replace('/', '.'));
    private static final MethodHandle PROCESS_CPU_LOAD_LIVE = live(OS_IMPL, "getProcessCpuLoad", double.class);
    private static final MethodHandle CPU_LOAD_LIVE = live(OS_IMPL, "getCpuLoad", double.class);
    private static final MethodHandle LOAD_AVERAGE_LIVE = live(BASE_IMPL, "getSystemLoadAverage", double.class);
    private static final MethodHandle PROCESS_CPU_TIME_LIVE = live(OS_IMPL, "getProcessCpuTime", long.class);
    private static final MethodHandle FREE_MEMORY_LIVE = live(OS_IMPL, "getFreeMemorySize", long.class);
    private static final MethodHandle TOTAL_MEMORY_LIVE = live(OS_IMPL, "getTotalMemorySize", long.class);
    private static final MethodHandle FREE_SWAP_LIVE = live(OS_IMPL, "getFreeSwapSpaceSize", long.class);
    private static final MethodHandle TOTAL_SWAP_LIVE = live(OS_IMPL, "getTotalSwapSpaceSize", long.class);
    private static final MethodHandle VIRTUAL_MEMORY_LIVE = live(OS_IMPL, "getCommittedVirtualMemorySize", long.class);
    private static final MethodHandle OPEN_FILES_LIVE = live(OS_IMPL, "getOpenFileDescriptorCount", long.class);
    private static final MethodHandle MAX_FILES_LIVE = live(OS_IMPL, "getMaxFileDescriptorCount", long.class);

    private OperatingSystemOps() {
    }

    @Prologue(owner = OS, method = "getProcessCpuLoad", desc = "()D")
    public static double processCpuLoad(Object bean) throws Throwable {
        return ratio(0, PROCESS_CPU_LOAD_LIVE, bean);
    }

    @Prologue(owner = OS, method = "getCpuLoad", desc = "()D")
    public static double cpuLoad(Object bean) throws Throwable {
        return ratio(1, CPU_LOAD_LIVE, bean);
    }

    @Prologue(owner = BASE, method = "getSystemLoadAverage", desc = "()D")
    public static double loadAverage(Object bean) throws Throwable {
        return ratio(2, LOAD_AVERAGE_LIVE, bean);
    }

    @Prologue(owner = OS, method = "getProcessCpuTime", desc = "()J")
    public static long processCpuTime(Object bean) throws Throwable {
        return figure(3, PROCESS_CPU_TIME_LIVE, bean);
    }

    @Prologue(owner = OS, method = "getFreeMemorySize", desc = "()J")
    public static long freeMemory(Object bean) throws Throwable {
        return figure(4, FREE_MEMORY_LIVE, bean);
    }

    @Prologue(owner = OS, method = "getTotalMemorySize", desc = "()J")
    public static long totalMemory(Object bean) throws Throwable {
        return figure(5, TOTAL_MEMORY_LIVE, bean);
    }

    @Prologue(owner = OS, method = "getFreeSwapSpaceSize", desc = "()J")
    public static long freeSwap(Object bean) throws Throwable {
        return figure(6, FREE_SWAP_LIVE, bean);
    }

    @Prologue(owner = OS, method = "getTotalSwapSpaceSize", desc = "()J")
    public static long totalSwap(Object bean) throws Throwable {
        return figure(7, TOTAL_SWAP_LIVE, bean);
    }

    @Prologue(owner = OS, method = "getCommittedVirtualMemorySize", desc = "()J")
    public static long virtualMemory(Object bean) throws Throwable {
        return figure(8, VIRTUAL_MEMORY_LIVE, bean);
    }

    @Prologue(owner = OS, method = "getOpenFileDescriptorCount", desc = "()J")
    public static long openFiles(Object bean) throws Throwable {
        return figure(9, OPEN_FILES_LIVE, bean);
    }

    @Prologue(owner = OS, method = "getMaxFileDescriptorCount", desc = "()J")
    public static long maxFiles(Object bean) throws Throwable {
        return figure(10, MAX_FILES_LIVE, bean);
    }

    /** A whole-number figure; {@code which} tells the figures apart in the event's digest. */
    private static long figure(int which, MethodHandle jdk, Object bean) throws Throwable {
        Ev ev = Ev.begin(FIGURE, 0, which);
        return ev.j(ev.live() ? (long) jdk.invokeExact(bean) : 0);
    }

    /** A figure with a fraction (a load), logged by its bits. */
    private static double ratio(int which, MethodHandle jdk, Object bean) throws Throwable {
        Ev ev = Ev.begin(FIGURE, 0, which);
        return Double.longBitsToDouble(ev.j(ev.live() ? Double.doubleToRawLongBits((double) jdk.invokeExact(bean)) : 0));
    }

    private static MethodHandle live(Class<?> owner, String name, Class<?> returned) {
        MethodHandle h = JdkMethods.special(owner, name, MethodType.methodType(returned));
        return h.asType(h.type().changeParameterType(0, Object.class));
    }
}
