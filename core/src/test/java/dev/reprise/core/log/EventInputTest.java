package dev.reprise.core.log;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.reprise.core.recording.RecordingReader;
import dev.reprise.core.recording.RecordingWriter;

/**
 * A replay looks at the next event's header without taking it, where it cannot tell by itself
 * whether the recording wrote an event there: the look must see what the next reads return, take
 * nothing, and load the next chunk when the last one is used up.
 */
class EventInputTest {
    @TempDir
    Path dir;

    @Test
    void peekingSeesTheNextHeaderAndTakesNothing() throws Exception {
        LogWriter writer = new LogWriter(RecordingWriter.of(dir), e -> { });
        writer.start();
        ThreadLog log = writer.open("1");
        int events = 3;
        for (int i = 0; i < events; i++) {
            EventBuffer b = log.buffer();
            int length = EventHeader.write(b, 100 + i, false, 7, 0xF0000000 | i);
            b.putVarLong(300L * i);
            b.closeLength(length);
            log.commit();
            log.flushCommitted(); // a chunk each: the second look loads a chunk
        }
        writer.close();
        EventInput in = new EventInput(RecordingReader.of(dir).streamFile("1"));
        for (int i = 0; i < events; i++) {
            assertTrue(!in.atEnd());
            long before = in.position();
            assertEquals((100L + i) << 1, in.peekVarLong(0), "operation of event " + i);
            assertEquals(0xF0000000 | i, (int) in.peekVarLong(2), "digest of event " + i);
            assertEquals(before, in.position());
            EventHeader h = EventHeader.read(in);
            assertEquals(100 + i, h.op());
            assertEquals(0xF0000000 | i, h.digest());
            assertEquals(300L * i, in.getVarLong());
        }
        assertTrue(in.atEnd());
    }

    @Test
    void aLookPastTheLoadedChunkFindsNothing() throws Exception {
        LogWriter writer = new LogWriter(RecordingWriter.of(dir), e -> { });
        writer.start();
        ThreadLog log = writer.open("1");
        log.buffer().putVarLong(5);
        log.commit();
        writer.close();
        EventInput in = new EventInput(RecordingReader.of(dir).streamFile("1"));
        assertTrue(!in.atEnd());
        assertEquals(5, in.peekVarLong(0));
        assertEquals(-1, in.peekVarLong(1));
    }
}
