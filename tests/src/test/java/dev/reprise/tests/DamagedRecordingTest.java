package dev.reprise.tests;

import static dev.reprise.tests.Reprise.corpus;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A damaged recording is refused before anything runs: {@code replay} and {@code inspect} both
 * exit 4 with one {@code reprise:} message naming the damaged file, and no stack trace. Each test
 * damages a copy of one completed recording whose main thread's stream spans several chunks.
 */
class DamagedRecordingTest {
    private static final int FILE_HEADER = 12;
    private static final int CHUNK_HEADER = 20;

    @TempDir
    static Path shared;
    static Path pristine;

    @TempDir
    Path tmp;

    @BeforeAll
    static void recordOnce() {
        pristine = shared.resolve("rec");
        Run recorded = Reprise.record(pristine, corpus("corpus.single.Flood", "12000", "0"));
        assertEquals(0, recorded.status(), recorded::toString);
    }

    @Test
    void streamTruncatedAtAChunkBoundary() throws IOException {
        Path rec = copy();
        Path stream = mainStream(rec);
        truncate(stream, FILE_HEADER + chunkLength(stream, FILE_HEADER));
        assertRefused(rec, "t1.rpl", "truncated");
    }

    @Test
    void flippedByteInsideAChunk() throws IOException {
        Path rec = copy();
        Path stream = mainStream(rec);
        long at = FILE_HEADER + CHUNK_HEADER + 100;
        byte[] b = Files.readAllBytes(stream);
        b[(int) at] ^= 0x20;
        Files.write(stream, b);
        assertRefused(rec, "t1.rpl at offset " + FILE_HEADER, "checksum mismatch");
    }

    @Test
    void tornLastChunkInACompletedRecording() throws IOException {
        Path rec = copy();
        Path stream = mainStream(rec);
        truncate(stream, Files.size(stream) - 10);
        assertRefused(rec, "t1.rpl at offset ", "cut short");
    }

    @Test
    void missingManifest() throws IOException {
        Path rec = copy();
        Files.delete(rec.resolve("manifest.json"));
        assertRefused(rec, "manifest.json", "missing");
    }

    @Test
    void manifestWithGarbage() throws IOException {
        Path rec = copy();
        Files.writeString(rec.resolve("manifest.json"), "{\"format\": 1, \"command\": [\"java\", ");
        assertRefused(rec, "manifest.json", "not valid JSON");
    }

    @Test
    void manifestOfANewerFormat() throws IOException {
        Path rec = copy();
        Path manifest = rec.resolve("manifest.json");
        Files.writeString(manifest, Reprise.read(manifest).replaceFirst("\"format\": \\d+,", "\"format\": 99,"));
        assertRefused(rec, "manifest.json", "newer Reprise");
    }

    @Test
    void missingStreamOfAListedThread() throws IOException {
        Path rec = copy();
        Files.delete(mainStream(rec));
        assertRefused(rec, "t1.rpl", "missing");
    }

    @Test
    void foreignDirectory() throws IOException {
        Path rec = Files.createDirectory(tmp.resolve("photos"));
        Files.writeString(rec.resolve("notes.txt"), "not a recording");
        Files.write(rec.resolve("data.bin"), new byte[] {1, 2, 3});
        assertRefused(rec, "manifest.json", "not a Reprise recording");
    }

    @Test
    void streamWithAForeignHeader() throws IOException {
        Path rec = copy();
        Path stream = mainStream(rec);
        try (RandomAccessFile f = new RandomAccessFile(stream.toFile(), "rw")) {
            f.write("PK\u0003\u0004 zip file".getBytes(StandardCharsets.ISO_8859_1));
        }
        assertRefused(rec, "t1.rpl at offset 0", "not a Reprise stream file");
    }

    /** A recording made by a build whose streams were LZ4-compressed (format 2) is refused by its version, not misread. */
    @Test
    void streamOfAnEarlierFormat() throws IOException {
        Path rec = copy();
        try (RandomAccessFile f = new RandomAccessFile(mainStream(rec).toFile(), "rw")) {
            f.seek(8);
            f.write(new byte[] {2, 0});
        }
        assertRefused(rec, "t1.rpl at offset 8", "unsupported stream format version 2");
    }

    @Test
    void nonexistentDirectory() {
        assertRefused(tmp.resolve("no-such-recording"), "no-such-recording", "no such recording directory");
    }

    /** Both commands refuse {@code rec}: exit 4, a message naming {@code file} and the damage, nothing else. */
    private static void assertRefused(Path rec, String file, String damage) {
        for (List<String> args : List.of(List.of("replay", rec.toString()), List.of("inspect", rec.toString()))) {
            Run run = Reprise.reprise(args, null, Map.of(), null);
            String what = args.get(0) + ": " + run;
            assertEquals(4, run.status(), what);
            assertEquals("", run.stdout(), what);
            assertTrue(run.stderr().startsWith("reprise: "), what);
            assertEquals(1, run.stderr().lines().count(), what);
            assertTrue(run.stderr().contains(file), () -> "names " + file + "\n" + what);
            assertTrue(run.stderr().contains(damage), () -> "says " + damage + "\n" + what);
            assertFalse(run.stderr().contains("Exception"), what);
        }
    }

    private Path copy() throws IOException {
        Path rec = tmp.resolve("rec");
        try (Stream<Path> files = Files.walk(pristine)) {
            for (Path p : files.toList()) {
                Files.copy(p, rec.resolve(pristine.relativize(p).toString()));
            }
        }
        return rec;
    }

    private static Path mainStream(Path rec) {
        Path stream = rec.resolve("streams/t1.rpl");
        assertTrue(Files.isRegularFile(stream), "the recording has a stream for the main thread");
        return stream;
    }

    /** Length, header included, of the chunk at {@code offset}. */
    private static int chunkLength(Path stream, long offset) throws IOException {
        byte[] b = Files.readAllBytes(stream);
        int clen = ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN).getInt((int) offset + 8);
        assertTrue(offset + CHUNK_HEADER + clen < b.length, "the stream has more than one chunk");
        return CHUNK_HEADER + clen;
    }

    private static void truncate(Path file, long size) throws IOException {
        try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
            f.setLength(size);
        }
    }
}
