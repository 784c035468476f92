package dev.reprise.cli.bench;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.FilterInputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TimedSpanTest {
    @TempDir
    Path tmp;

    @Test
    void spansTheMarksOfARealProcessAndKeepsItsStderr() throws Exception {
        Process p = new ProcessBuilder("sh", "-c",
                "echo before >&2; sleep 0.5; echo 'bench: main begins' >&2; sleep 0.3; echo 'bench: main ends' >&2; echo after >&2")
                .start();
        Path file = tmp.resolve("err");
        TimedSpan span = TimedSpan.start(p.getErrorStream(), file);
        assertEquals(0, p.waitFor());
        long nanos = span.finish();
        // About 0.3 s: the sleep between the marks, not the one before them.
        assertTrue(nanos >= TimeUnit.MILLISECONDS.toNanos(200) && nanos < TimeUnit.MILLISECONDS.toNanos(750),
                () -> "the span is the time between the marks: " + nanos + " ns");
        assertEquals("before\nbench: main begins\nbench: main ends\nafter\n", Files.readString(file));
    }

    @Test
    void marksSplitAcrossReadsStillCount() throws Exception {
        byte[] err = "x\nbench: main begins\nbench: main ends\n".getBytes(StandardCharsets.US_ASCII);
        Path file = tmp.resolve("err");
        TimedSpan span = TimedSpan.start(oneByteAtATime(new ByteArrayInputStream(err)), file);
        assertTrue(span.finish() >= 0, "both marks seen");
        assertArrayEquals(err, Files.readAllBytes(file));
    }

    @Test
    void aMissingMarkGivesNoSpan() throws Exception {
        for (String err : new String[] {"bench: main begins\n", "bench: main ends\nbench: main begins\n",
            "bench: main begins\nbench: main ends", "bench: main begins and more\nbench: main ends\n"}) {
            TimedSpan span = TimedSpan.start(new ByteArrayInputStream(err.getBytes(StandardCharsets.US_ASCII)), tmp.resolve("err"));
            assertEquals(-1, span.finish(), () -> "no span from " + err.replace("\n", "\\n"));
        }
    }

    private static InputStream oneByteAtATime(InputStream in) {
        return new FilterInputStream(in) {
            @Override
            public int read(byte[] b, int off, int len) throws java.io.IOException {
                return super.read(b, off, Math.min(len, 1));
            }
        };
    }
}
