package dev.reprise.core.log;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.reprise.core.recording.RecordingWriter;

/**
 * Handing a chunk to the writer may make the recorded thread wait, and that wait must not take
 * the unpark the program left for its own next park: the program would then wait forever.
 */
class LogWriterTest {
    @TempDir
    Path dir;

    @Test
    void aThreadThatWaitedForTheWriterKeepsItsUnpark() throws Exception {
        LogWriter writer = new LogWriter(RecordingWriter.of(dir), e -> { });
        Thread self = Thread.currentThread();
        // The writer starts only once this thread waits in a hand-off, the queue being full
        // (or after 10 s, which the test reports: then it did not test the wait).
        AtomicBoolean sawWait = new AtomicBoolean();
        Thread starter = new Thread(() -> {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (!sawWait.get() && System.nanoTime() < deadline) {
                sawWait.set(self.getState() == Thread.State.WAITING);
                Thread.onSpinWait();
            }
            writer.start();
        });
        LockSupport.unpark(self); // the program's unpark, ahead of its park
        starter.start();
        for (int i = 0; i <= LogWriter.QUEUED; i++) {
            writer.submit("t", new byte[16], 16, 1);
        }
        long start = System.nanoTime();
        LockSupport.parkNanos(TimeUnit.SECONDS.toNanos(30));
        long parked = System.nanoTime() - start;
        starter.join();
        writer.close();
        assertTrue(sawWait.get(), "the hand-off never waited: the queue holds more than " + LogWriter.QUEUED + " chunks");
        assertTrue(parked < TimeUnit.SECONDS.toNanos(15), "the unpark was lost: the park waited "
                + TimeUnit.NANOSECONDS.toMillis(parked) + " ms");
    }
}
