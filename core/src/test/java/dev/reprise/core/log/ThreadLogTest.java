package dev.reprise.core.log;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.reprise.core.recording.RecordingReader;
import dev.reprise.core.recording.RecordingWriter;

/**
 * A stream's events reach the disk on the writer's timer, not only when a chunk fills: a JVM
 * killed outright then loses only the last period's events. The timer flushes from another
 * thread while the owner keeps recording, and every event must still be written once, whole and
 * in order.
 */
class ThreadLogTest {
    @TempDir
    Path dir;

    @Test
    void eventsReachTheDiskWithinAFlushPeriodWithoutFillingAChunk() throws Exception {
        LogWriter writer = new LogWriter(RecordingWriter.of(dir), e -> { });
        writer.start();
        ThreadLog log = writer.open("1");
        for (int i = 0; i < 3; i++) {
            log.buffer().putVarLong(i);
            log.commit();
        }
        Path stream = RecordingReader.of(dir).streamFile("1");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (countEvents(stream) < 3) {
            assertTrue(System.nanoTime() < deadline, "the committed events were not flushed within 5 s");
            Thread.sleep(LogWriter.FLUSH_MILLIS / 2);
        }
        writer.close();
        assertEquals(3, countEvents(stream));
    }

    @Test
    void timedFlushesWhileTheOwnerRecordsWriteEveryEventOnceInOrder() throws Exception {
        LogWriter writer = new LogWriter(RecordingWriter.of(dir), e -> { });
        writer.start();
        ThreadLog log = writer.open("1");
        int events = 300_000;
        // Besides the timer, a thread that flushes as fast as it can, to meet the owner mid-event.
        Thread flusher = new Thread(() -> {
            while (!Thread.currentThread().isInterrupted()) {
                log.flushCommitted();
            }
        });
        flusher.start();
        for (int i = 0; i < events; i++) {
            EventBuffer b = log.buffer();
            b.putVarLong(i);
            b.putString(i % 7 == 0 ? "a longer event, to grow the buffer " + i : null);
            log.commit();
        }
        flusher.interrupt();
        flusher.join();
        writer.close();
        assertEquals(events, log.flushedEvents());
        Path stream = RecordingReader.of(dir).streamFile("1");
        assertEquals(events, countEvents(stream));
        EventInput in = new EventInput(stream);
        for (int i = 0; i < events; i++) {
            assertEquals(i, in.getVarLong(), "event " + i);
            String s = in.getString();
            assertEquals(i % 7 == 0 ? "a longer event, to grow the buffer " + i : null, s);
        }
        assertTrue(in.atEnd());
    }

    /** The events the stream's complete chunks declare; 0 if the writer has not written its header yet. */
    private static long countEvents(Path stream) throws java.io.IOException {
        if (!Files.exists(stream) || Files.size(stream) < StreamFormat.fileHeader().length) {
            return 0;
        }
        long n = 0;
        try (ChunkReader chunks = new ChunkReader(stream)) {
            for (int c = chunks.nextCount(); c >= 0; c = chunks.nextCount()) {
                n += c;
            }
        }
        return n;
    }
}
