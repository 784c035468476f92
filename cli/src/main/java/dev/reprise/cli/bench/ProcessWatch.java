package dev.reprise.cli.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Watches a program's JVM while it runs: samples its peak resident set ({@code VmHWM} in
 * {@code /proc/PID/status}, a high-water mark, so sampling misses at most the last interval's
 * growth) and kills it past a deadline, so that a replay that hangs fails instead of stalling the bench.
 */
public final class ProcessWatch {
    private static final long INTERVAL_MILLIS = 20;

    private final Thread thread;
    private volatile long peakKb;
    private volatile boolean timedOut;

    private ProcessWatch(Process p, long deadlineNanos) {
        thread = new Thread(() -> watch(p, deadlineNanos), "bench-watch-" + p.pid());
        thread.setDaemon(true);
        thread.start();
    }

    public static ProcessWatch start(Process p, long timeoutNanos) {
        return new ProcessWatch(p, System.nanoTime() + timeoutNanos);
    }

    private void watch(Process p, long deadlineNanos) {
        Path status = Path.of("/proc", Long.toString(p.pid()), "status");
        while (p.isAlive()) {
            peakKb = Math.max(peakKb, vmHwm(status));
            if (System.nanoTime() > deadlineNanos) {
                timedOut = true;
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly();
                return;
            }
            try {
                Thread.sleep(INTERVAL_MILLIS);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    private static long vmHwm(Path status) {
        try {
            for (String line : Files.readAllLines(status)) {
                if (line.startsWith("VmHWM:")) {
                    return Long.parseLong(line.substring(6).trim().split("\\s+")[0]);
                }
            }
        } catch (IOException | RuntimeException e) {
            // the process has just ended, or this is not Linux: no sample
        }
        return 0;
    }

    /** Waits for the watcher to see the end of the process; returns the peak in KiB (0 if unknown). */
    public long finish() throws InterruptedException {
        thread.join();
        return peakKb;
    }

    public boolean timedOut() {
        return timedOut;
    }
}
