package dev.reprise.cli.debug;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * One of the replay's output streams (stdout or stderr) as the user sees it, while going back
 * replaces the replay's JVM: every JVM prints the recorded output from its start, so each JVM's
 * bytes are shown only past what an earlier one has shown, and the user sees the recorded output
 * once, byte for byte. A new JVM shows nothing new until it gets past where the old one was.
 * <p>
 * Thread-safety: each JVM's stream is copied on its own thread; {@link #shown} is guarded by this
 * object, so an old JVM's last bytes, still read after it was ended, and the new JVM's never
 * interleave. Determinism makes their bytes at the same offset the same.
 * <p>
 * Reprise's own messages go to the same terminal from other threads: {@link #settle} lets one wait
 * until what the JVM printed before it stopped is shown, so that a message never lands inside a
 * line the program printed before it.
 */
public final class OutputSplice {
    private static final int BUFFER = 8192;
    /** How long a copier waits in one read before its pipe counts as empty. */
    private static final long QUIET_MILLIS = 20;

    private final OutputStream to;
    private long shown;
    /** Set once writing failed (a closed pipe): the JVMs' output is still read, so they never block on it. */
    private boolean broken;

    public OutputSplice(OutputStream to) {
        this.to = to;
    }

    /** The streams being copied, each with how far its copier is. */
    private final Set<Copy> copies = ConcurrentHashMap.newKeySet();

    /**
     * A copier's progress: whether it waits in a read, all it read before shown, and how many
     * reads returned. Its stream cannot be asked what it holds: the process's pipe stream locks
     * itself for the whole of a blocking read.
     */
    private static final class Copy {
        volatile boolean reading;
        volatile long reads;
    }

    /** Copies one JVM's stream on a daemon thread, until it ends; returns the thread. */
    public Thread copy(InputStream from, String name) {
        Copy copy = new Copy();
        copies.add(copy);
        Thread t = new Thread(() -> {
            byte[] buf = new byte[BUFFER];
            long at = 0;
            try (from) {
                while (true) {
                    copy.reading = true;
                    int n = from.read(buf);
                    copy.reading = false;
                    copy.reads++; // this thread alone writes it
                    if (n < 0) {
                        break;
                    }
                    show(buf, at, n);
                    at += n;
                }
            } catch (IOException e) {
                // the JVM was ended; what it printed up to there is shown
            } finally {
                copies.remove(copy);
            }
        }, name);
        t.setDaemon(true);
        t.start();
        return t;
    }

    /**
     * Waits, at most {@code millis}, until what the JVMs printed so far is shown: for a JVM whose
     * threads are all suspended, all it printed. A copier that has waited in one read for
     * {@value #QUIET_MILLIS} ms found its pipe empty, as a read returns as soon as bytes come.
     */
    public void settle(long millis) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        for (Copy c : copies) {
            while (System.nanoTime() < deadline) {
                long reads = c.reads;
                boolean waiting = c.reading;
                Thread.sleep(QUIET_MILLIS);
                if (waiting && c.reading && c.reads == reads) {
                    break;
                }
            }
        }
    }

    /** Shows the part of {@code n} bytes at offset {@code at} of a JVM's stream not shown yet. */
    private synchronized void show(byte[] buf, long at, int n) {
        long end = at + n;
        if (end <= shown) {
            return;
        }
        int skip = (int) Math.max(0, shown - at);
        shown = end;
        if (broken) {
            return;
        }
        try {
            to.write(buf, skip, n - skip);
            to.flush();
        } catch (IOException e) {
            broken = true;
        }
    }
}
