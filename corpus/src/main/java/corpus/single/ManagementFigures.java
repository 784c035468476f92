package corpus.single;

import corpus.Expect;
import java.lang.management.ClassLoadingMXBean;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.lang.management.RuntimeMXBean;
import java.lang.management.ThreadMXBean;

/**
 * The process's figures through {@code java.lang.management}: the runtime's name (the PID and
 * the host), uptime, start time and JVM arguments, the thread's CPU times, the counts of threads
 * and classes, the compilers' time, the memory in use, the operating system's figures (CPU load
 * and time, load average, memory, open files), and the garbage collectors' counts and times. A
 * program names a temporary directory after the PID, prints how long it took, or warns when its
 * load passes a threshold (Hazelcast's health monitor logs the thread counts).
 */
@Expect(plainRunsDiffer = true)
public final class ManagementFigures {
    public static void main(String[] args) {
        RuntimeMXBean runtime = ManagementFactory.getRuntimeMXBean();
        System.out.println("name " + runtime.getName());
        System.out.println("pid matches the name " + runtime.getName().startsWith(runtime.getPid() + "@"));
        System.out.println("uptime " + runtime.getUptime() + " started " + runtime.getStartTime());
        System.out.println("arguments " + runtime.getInputArguments().size());
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        System.out.println("cpu " + threads.getCurrentThreadCpuTime() + " user " + threads.getCurrentThreadUserTime()
                + " by id " + threads.getThreadCpuTime(Thread.currentThread().getId()));
        System.out.println("threads " + threads.getThreadCount() + ", peak " + threads.getPeakThreadCount() + ", daemons "
                + threads.getDaemonThreadCount() + ", started " + threads.getTotalStartedThreadCount());
        ClassLoadingMXBean classes = ManagementFactory.getClassLoadingMXBean();
        System.out.println("classes " + classes.getLoadedClassCount() + " of " + classes.getTotalLoadedClassCount()
                + ", unloaded " + classes.getUnloadedClassCount());
        System.out.println("compiling took " + ManagementFactory.getCompilationMXBean().getTotalCompilationTime() + " ms");
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        System.out.println("heap " + memory.getHeapMemoryUsage());
        System.out.println("non-heap " + memory.getNonHeapMemoryUsage());
        com.sun.management.UnixOperatingSystemMXBean os =
                (com.sun.management.UnixOperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        System.out.println("process cpu load " + os.getProcessCpuLoad() + " time " + os.getProcessCpuTime()
                + ", machine " + os.getCpuLoad() + ", load average " + os.getSystemLoadAverage());
        System.out.println("memory free " + os.getFreeMemorySize() + " of " + os.getTotalMemorySize()
                + ", swap " + os.getFreeSwapSpaceSize() + " of " + os.getTotalSwapSpaceSize()
                + ", virtual " + os.getCommittedVirtualMemorySize());
        System.out.println("open files " + os.getOpenFileDescriptorCount() + " of " + os.getMaxFileDescriptorCount());
        byte[][] garbage = new byte[64][];
        for (int i = 0; i < 4096; i++) {
            garbage[i % garbage.length] = new byte[16 * 1024];
        }
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            System.out.println("collector " + gc.getName() + ": " + gc.getCollectionCount() + " collections in "
                    + gc.getCollectionTime() + " ms");
        }
        com.sun.management.GarbageCollectorMXBean young =
                (com.sun.management.GarbageCollectorMXBean) ManagementFactory.getGarbageCollectorMXBeans().get(0);
        System.out.println("first collector, through its extended bean: " + young.getCollectionCount() + " collections");
    }
}
