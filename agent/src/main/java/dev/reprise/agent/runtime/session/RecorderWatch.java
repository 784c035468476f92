package dev.reprise.agent.runtime.session;

import dev.reprise.agent.runtime.events.Divergence;
import dev.reprise.agent.runtime.jdk.OwnThreads;

/**
 * Recording: ends the program when {@code reprise record} is gone (killed outright, it could
 * neither forward a signal nor wait), as a SIGTERM would, so that the program's shutdown hooks
 * and Reprise's exit run and the streams are flushed. Linux's parent-death signal is not
 * reachable from Java, so a daemon thread looks every {@value #PERIOD_MILLIS} ms whether this
 * JVM's parent is still the recorder: a process whose parent dies is given another.
 */
final class RecorderWatch extends Thread {
    private static final long PERIOD_MILLIS = 200;
    /** The status a SIGTERM gives a JVM: the program ends as if the recorder had forwarded one. */
    static final int STATUS = 128 + 15;
    /** Set as the watch ends the program: the end of the recording says so. */
    static volatile boolean fired;

    private final long recorder;

    private RecorderWatch(long recorder) {
        super(OwnThreads.GROUP, "reprise-recorder-watch");
        this.recorder = recorder;
        setDaemon(true);
    }

    /** Starts watching {@code recorder}, a pid; 0 watches nothing. Called before interception starts. */
    static void start(long recorder) {
        if (recorder != 0) {
            new RecorderWatch(recorder).start();
        }
    }

    @Override
    public void run() {
        while (parentIsRecorder()) {
            try {
                Thread.sleep(PERIOD_MILLIS);
            } catch (InterruptedException e) {
                // only the recorder's end matters
            }
        }
        fired = true;
        Divergence.message("reprise record (pid " + recorder + ") is gone: ending the program as a SIGTERM would");
        System.exit(STATUS);
    }

    /**
     * Reads the parent's pid from {@code /proc/self/stat} (the field after the parenthesized
     * command name) rather than through {@code ProcessHandle}: initializing ProcessHandleImpl
     * loads its reaper's thread pool, and with it JDK classes (SynchronousQueue's nodes) whose
     * initializers would then run unbracketed on whichever program thread used them first,
     * in recordings only.
     */
    private boolean parentIsRecorder() {
        try (java.io.FileInputStream in = new java.io.FileInputStream("/proc/self/stat")) {
            String stat = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.US_ASCII);
            String[] after = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return Long.parseLong(after[1]) == recorder;
        } catch (java.io.IOException | RuntimeException e) {
            return true; // no way to tell: keep recording rather than end the program
        }
    }
}
