package dev.reprise.core.recording;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.reprise.core.log.EventInput;
import dev.reprise.core.log.LogWriter;
import dev.reprise.core.log.RecordingCorruptException;
import dev.reprise.core.log.ThreadLog;

/**
 * A small recording written through {@link RecordingWriter}, as the recording agent and
 * {@code reprise record} write one, reads back through {@link RecordingReader} as replay reads it:
 * the files where a user finds them, the streams' events, the side files, the manifest's seal, and
 * damage to a side file or the seal refused.
 */
class RecordingRoundTripTest {
    @TempDir
    Path tmp;

    @Test
    void whatTheWriterWritesTheReaderReads() throws IOException {
        Path dir = tmp.resolve("rec");
        RecordingWriter out = RecordingWriter.create(dir);
        LogWriter streams = new LogWriter(out, e -> { });
        streams.start();
        for (String thread : List.of("1", "1.2", "init-app.Config")) {
            ThreadLog log = streams.open(thread);
            log.buffer().putString("hello from " + thread);
            log.commit();
        }
        streams.close();
        Properties jvm = new Properties();
        jvm.setProperty("java.version", "17.0.99");
        out.writeJvm(jvm);
        Properties ops = new Properties();
        ops.setProperty("7", "file.read");
        out.writeOps(ops);
        out.writeEnd(EndOfRun.flushed(Map.of("1", 1L, "1.2", 1L, "init-app.Config", 1L), new long[] {9, 4}, true, List.of("app/Cache.next"), List.of("app/Cache.size"), -1,
                Map.of("1.2", 1000L), new long[] {-7, 1_234_567_890}));
        byte[] manifest = "{\"format\": 4}".getBytes(StandardCharsets.UTF_8);
        out.writeManifest(manifest);
        Map<String, String> sums = out.sideFileChecksums();

        assertEquals(Set.of("manifest.json", "manifest.sha256", "jvm.properties", "ops.properties", "end.properties",
                "streams"), Set.of(Files.list(dir).map(p -> p.getFileName().toString()).toArray(String[]::new)));
        assertTrue(Files.isRegularFile(dir.resolve("streams/t1.2.rpl")));
        assertEquals(sums.keySet(), Set.copyOf(Recording.SIDE_FILES));

        RecordingReader in = RecordingReader.of(dir);
        assertEquals(List.of(dir.resolve("streams/t1.2.rpl"), dir.resolve("streams/t1.rpl"),
                dir.resolve("streams/tinit-app.Config.rpl")), in.streams());
        assertEquals(Set.of("1", "1.2", "init-app.Config"), in.streamNames());
        assertEquals("hello from 1.2", in.open("1.2").getString());
        assertEquals(Map.of("java.version", "17.0.99"), in.jvm());
        assertEquals("file.read", in.ops().getProperty("7"));
        EndOfRun end = in.endOfRun();
        assertEquals(Map.of("1", 1L, "1.2", 1L, "init-app.Config", 1L), end.threads());
        assertArrayEquals(new long[] {4, 9}, end.cutTurns());
        assertEquals(Map.of("1.2", 1000L), end.relaxedTails());
        assertArrayEquals(new long[] {-7, 1_234_567_890}, end.polledReferences());
        assertTrue(end.flushed());
        assertTrue(end.recorderGone());
        assertEquals(List.of("app/Cache.next"), end.racedFields());
        assertEquals(List.of("app/Cache.size"), end.fieldsAlongside());
        assertEquals(-1, end.exitCalled());
        assertArrayEquals(manifest, in.manifestBytes());
        in.checkSeal(manifest);
        in.checkSideFiles(sums, false);

        Files.writeString(dir.resolve("ops.properties"), "7=file.write\n");
        RecordingCorruptException e = assertThrows(RecordingCorruptException.class, () -> in.checkSideFiles(sums, false));
        assertEquals(dir.resolve("ops.properties") + ": checksum mismatch: not what manifest.json lists", e.getMessage());
        e = assertThrows(RecordingCorruptException.class, () -> in.checkSeal("{\"format\": 5}".getBytes(StandardCharsets.UTF_8)));
        assertEquals(dir.resolve("manifest.json") + ": checksum mismatch: it is not what manifest.sha256 says was written",
                e.getMessage());
    }

    @Test
    void aFailedWriteAndAMissingEndAreToldApart() throws IOException {
        RecordingWriter out = RecordingWriter.create(tmp);
        RecordingReader in = RecordingReader.of(tmp);
        assertNull(in.endOfRun(), "killed outright: no end");
        assertFalse(EndOfRun.completed(in.endOfRun(), 0));
        out.writeEnd(EndOfRun.writeFailed("No space left on device", false, null));
        EndOfRun end = in.endOfRun();
        assertFalse(end.flushed());
        assertEquals("No space left on device", end.writeFailed());
        assertEquals(Map.of(), end.threads());
        assertFalse(EndOfRun.completed(end, 0));
        out.writeEnd(EndOfRun.flushed(Map.of("1", 3L), new long[0], false, null, null, null, Map.of(), new long[0]));
        assertTrue(EndOfRun.completed(in.endOfRun(), 0));
        assertFalse(EndOfRun.completed(in.endOfRun(), 128 + 15), "ended by a signal");
        assertTrue(EndOfRun.bySignal(in.endOfRun(), 128 + 15));
    }

    /** A program's own exit with a status of 128 or more is not a signal's: exit(-1) leaves 255. */
    @Test
    void anExitWithAHighStatusIsNotASignal() throws IOException {
        RecordingWriter out = RecordingWriter.create(tmp);
        RecordingReader in = RecordingReader.of(tmp);
        out.writeEnd(EndOfRun.flushed(Map.of("1", 3L), new long[0], false, null, null, -1, Map.of(), new long[0]));
        assertTrue(EndOfRun.completed(in.endOfRun(), 255));
        assertFalse(EndOfRun.bySignal(in.endOfRun(), 255));
        assertFalse(EndOfRun.completed(in.endOfRun(), 130), "exit(-1) called, then ended by SIGINT's status");
        out.writeEnd(EndOfRun.flushed(Map.of("1", 3L), new long[0], false, null, null, 130, Map.of(), new long[0]));
        assertTrue(EndOfRun.completed(in.endOfRun(), 130));
        assertFalse(EndOfRun.bySignal(in.endOfRun(), 130));
    }

    @Test
    void aDirectoryThatHoldsAnythingIsRefused() throws IOException {
        Files.writeString(tmp.resolve("notes.txt"), "mine");
        IOException e = assertThrows(IOException.class, () -> RecordingWriter.create(tmp));
        assertEquals(tmp + " exists and is not empty", e.getMessage());
    }
}
