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

import com.google.gson.GsonBuilder;
import com.google.gson.JsonArray;
import com.google.gson.JsonNull;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;

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

    @Test
    void manifestChangedButNotItsChecksum() throws IOException {
        Path rec = copy();
        Path manifest = rec.resolve("manifest.json");
        Files.writeString(manifest, Reprise.read(manifest).replaceFirst("\"exitStatus\": 0", "\"exitStatus\": 1"));
        assertRefused(rec, "manifest.json", "checksum mismatch");
    }

    @Test
    void missingManifestChecksum() throws IOException {
        Path rec = copy();
        Files.delete(rec.resolve("manifest.sha256"));
        assertRefused(rec, "manifest.sha256", "missing");
    }

    /** Two operation names swapped made {@code inspect} mislabel events; garbage made it exit 4 while replay ran. */
    @Test
    void sideFilesChangedAfterRecording() throws IOException {
        Path rec = copy();
        Path ops = rec.resolve("ops.properties");
        List<String> lines = Files.readAllLines(ops);
        String first = lines.get(0).substring(lines.get(0).indexOf('='));
        String second = lines.get(1).substring(lines.get(1).indexOf('='));
        lines.set(0, lines.get(0).replace(first, second));
        lines.set(1, lines.get(1).replace(second, first));
        Files.write(ops, lines);
        assertRefused(rec, "ops.properties", "checksum mismatch");
        Files.writeString(ops, "\\u12");
        assertRefused(rec, "ops.properties", "checksum mismatch");
        Files.delete(ops);
        assertRefused(rec, "ops.properties", "missing");
    }

    /** Sealed anew, as a crafted recording would be: each field is still checked, and named. */
    @Test
    void manifestFieldsOfTheWrongTypeOrRange() throws IOException {
        Map<String, java.util.function.Consumer<JsonObject>> damage = new java.util.LinkedHashMap<>();
        damage.put("field 'threads.1': 92233720368547758070 is out of range",
                m -> m.getAsJsonObject("threads").addProperty("1", new java.math.BigInteger("92233720368547758070")));
        damage.put("field 'threads.1': not a whole number: 12.5",
                m -> m.getAsJsonObject("threads").addProperty("1", new java.math.BigDecimal("12.5")));
        damage.put("field 'threads.1': -3 is out of range", m -> m.getAsJsonObject("threads").addProperty("1", -3));
        damage.put("field 'threads': not a thread path: ../../x", m -> m.getAsJsonObject("threads").addProperty("../../x", 0));
        damage.put("field 'cwd': null", m -> m.add("cwd", JsonNull.INSTANCE));
        damage.put("field 'cwd': not a string", m -> m.addProperty("cwd", 17));
        damage.put("field 'cwd': not an absolute path", m -> m.addProperty("cwd", "x"));
        damage.put("field 'order': neither rto nor to", m -> m.addProperty("order", "sometimes"));
        damage.put("field 'command': missing", m -> m.remove("command"));
        damage.put("field 'command[1]': null", m -> m.getAsJsonArray("command").set(1, JsonNull.INSTANCE));
        damage.put("field 'exitStatus': 256 is out of range", m -> m.addProperty("exitStatus", 256));
        damage.put("field 'completed': neither true nor false", m -> m.addProperty("completed", "yes"));
        damage.put("field 'jvm.java.version': missing", m -> m.getAsJsonObject("jvm").remove("java.version"));
        damage.put("field 'orderedFields': not a field as package/Class.field, package/Class.[] or package/Class.#hash: {}", m -> {
            JsonArray fields = new JsonArray();
            fields.add("{}");
            m.add("orderedFields", fields);
        });
        damage.put("field 'environment': not a field of a Reprise manifest", m -> m.add("environment", new JsonObject()));
        damage.put("field 'files': not a file of a recording: ../x", m -> m.getAsJsonObject("files").addProperty("../x", "00"));
        for (Map.Entry<String, java.util.function.Consumer<JsonObject>> d : damage.entrySet()) {
            Path rec = copy();
            Reprise.editManifest(rec, text -> {
                JsonObject m = JsonParser.parseString(text).getAsJsonObject();
                d.getValue().accept(m);
                return new GsonBuilder().setPrettyPrinting().serializeNulls().create().toJson(m);
            });
            assertRefused(rec, "manifest.json: " + d.getKey(), "");
            Reprise.deleteTree(rec);
        }
    }

    /** Lenient JSON, read before as if strict: unquoted names and words, a second value, text not in UTF-8. */
    @Test
    void manifestThatIsNotStrictJson() throws IOException {
        Map<String, String> damage = Map.of("\"completed\": true", "\"completed\": tbue", "\"order\":", "order:",
                "\"exitStatus\": 0,", "\"exitStatus\": 0, \"exitStatus\": 1,");
        for (Map.Entry<String, String> d : damage.entrySet()) {
            Path rec = copy();
            Reprise.editManifest(rec, m -> m.replace(d.getKey(), d.getValue()));
            assertRefused(rec, "manifest.json", "not valid JSON");
            Reprise.deleteTree(rec);
        }
        Path rec = copy();
        String text = Reprise.read(rec.resolve("manifest.json"));
        byte[] latin1 = text.replace("\"cwd\": \"", "\"cwd\": \"\u00e9").getBytes(StandardCharsets.ISO_8859_1);
        Reprise.rewriteManifest(rec, latin1);
        assertRefused(rec, "manifest.json", "not UTF-8 text");
    }

    @Test
    void manifestOfAnEarlierFormat() throws IOException {
        Path rec = copy();
        Reprise.editManifest(rec, m -> m.replaceFirst("\"format\": \\d+,", "\"format\": 3,"));
        assertRefused(rec, "manifest.json", "recording format 3, not supported");
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
        return Reprise.copyRecording(pristine, tmp.resolve("rec"));
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
