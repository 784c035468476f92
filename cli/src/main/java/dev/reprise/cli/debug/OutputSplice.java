package dev.reprise.cli.debug;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;

/**
 * One of the replay's output streams (stdout or stderr) as the user sees it, while going back
 * replaces the replay's JVM: every JVM prints the recorded output from its start, so each JVM's
 * bytes are shown only past what an earlier one has shown, and the user sees the recorded output
 * once, byte for byte. A new JVM shows nothing new until it gets past where the old one was.
 * <p>
 * Thread-safety: each JVM's stream is copied on its own thread; {@link #shown} is guarded by this
 * object, so an old JVM's last bytes, still read after it was ended, and the new JVM's never
 * interleave. Determinism makes their bytes at the same offset the same.
 */
public final class OutputSplice {
    private static final int BUFFER = 8192;

    private final OutputStream to;
    private long shown;
    /** Set once writing failed (a closed pipe): the JVMs' output is still read, so they never block on it. */
    private boolean broken;

    public OutputSplice(OutputStream to) {
        this.to = to;
    }

    /** Copies one JVM's stream on a daemon thread, until it ends; returns the thread. */
    public Thread copy(InputStream from, String name) {
        Thread t = new Thread(() -> {
            byte[] buf = new byte[BUFFER];
            long at = 0;
            try (from) {
                for (int n = from.read(buf); n >= 0; n = from.read(buf)) {
                    show(buf, at, n);
                    at += n;
                }
            } catch (IOException e) {
                // the JVM was ended; what it printed up to there is shown
            }
        }, name);
        t.setDaemon(true);
        t.start();
        return t;
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
