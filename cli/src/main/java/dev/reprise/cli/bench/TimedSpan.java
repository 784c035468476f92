package dev.reprise.cli.bench;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * Copies a workload's stderr from its pipe to a file and notes when the marks of its timed span
 * ({@code bench.Timed}: main, first statement to last) arrive. The span is timed here, outside
 * the program, because a replayed program's clocks return the recorded times. A mark is timed
 * when the read that completes its line returns, so the pipe's latency (microseconds) is all it adds.
 * The marks' text is {@code bench.Timed}'s: the bench module cannot be a dependency of the command.
 */
final class TimedSpan {
    private static final byte[] BEGIN = "bench: main begins".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] END = "bench: main ends".getBytes(StandardCharsets.US_ASCII);
    /** Longer lines cannot be marks: only their first bytes are kept for the comparison. */
    private static final int LINE = 64;

    private final Thread thread;
    /** Written by the pump thread only; read after {@link #finish} joins it (join orders the reads after the writes). */
    private long beginNanos = -1;
    private long endNanos = -1;
    private IOException failure;

    private TimedSpan(InputStream err, Path file) {
        thread = new Thread(() -> pump(err, file), "bench-stderr");
        thread.setDaemon(true);
        thread.start();
    }

    static TimedSpan start(InputStream err, Path file) {
        return new TimedSpan(err, file);
    }

    private void pump(InputStream err, Path file) {
        byte[] buf = new byte[8192];
        byte[] line = new byte[LINE];
        int lineLength = 0;
        try (InputStream in = err; OutputStream out = Files.newOutputStream(file)) {
            for (int n; (n = in.read(buf)) > 0; ) {
                long now = System.nanoTime();
                out.write(buf, 0, n);
                for (int i = 0; i < n; i++) {
                    byte b = buf[i];
                    if (b == '\n') {
                        mark(line, lineLength, now);
                        lineLength = 0;
                    } else if (lineLength < LINE) {
                        line[lineLength++] = b;
                    }
                }
            }
        } catch (IOException e) {
            failure = e;
        }
    }

    private void mark(byte[] line, int length, long now) {
        if (Arrays.equals(line, 0, length, BEGIN, 0, BEGIN.length) && beginNanos < 0) {
            beginNanos = now;
        } else if (Arrays.equals(line, 0, length, END, 0, END.length) && beginNanos >= 0 && endNanos < 0) {
            endNanos = now;
        }
    }

    /**
     * Waits until the program's stderr is closed and copied; returns the time between the marks,
     * or -1 if either is missing.
     */
    long finish() throws IOException, InterruptedException {
        thread.join();
        if (failure != null) {
            throw failure;
        }
        return endNanos < 0 ? -1 : endNanos - beginNanos;
    }
}
