package dev.reprise.cli.debug;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

/**
 * A message Reprise prints once the replay's JVM stopped comes after what the JVM printed before:
 * under a debugger, "reprise: stopped at exit" once landed inside the line of the program's
 * uncaught exception, whose rest was still in the pipe.
 */
class OutputSpliceTest {
    @Test
    void settleWaitsUntilWhatWasPrintedIsShown() throws IOException, InterruptedException {
        ByteArrayOutputStream terminal = new ByteArrayOutputStream();
        OutputSplice splice = new OutputSplice(terminal);
        PipedOutputStream jvm = new PipedOutputStream();
        Thread copier = splice.copy(new PipedInputStream(jvm, 1 << 16), "copier");
        String printed = "Exception in thread \"main\" java.lang.IllegalStateException: out of washer\n";
        jvm.write(printed.getBytes(StandardCharsets.UTF_8));
        jvm.flush();
        splice.settle(5_000);
        synchronized (splice) { // show() writes under the splice's lock
            assertEquals(printed, terminal.toString(StandardCharsets.UTF_8));
        }
        jvm.close();
        copier.join();
    }
}
