package dev.reprise.agent.instrument;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.File;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Cache entries read back as they were written: a class load parses one from the class path's
 * pack, and start-up the JDK classes' from one file. A read that went wrong is a miss, which
 * only costs time, so nothing but these tests would show it.
 */
class CacheEntriesTest {
    private static final VolatileFields.Declared FIELDS =
            new VolatileFields.Declared("app/Base", Set.of("count", "state", "name"), Set.of("state"), Set.of("name"), true);
    private static final ClassCache.Entry ENTRY = new ClassCache.Entry(new byte[] {(byte) 0xCA, (byte) 0xFE, 0, 1},
            List.of("app.Main.run:12", "app.Main.run:14", "app.Main.<clinit>:3"),
            List.of("app/Other;count;0;app/Other", "app/Key;;h;"), ClassCache.declaredBytes(FIELDS));

    @Test
    void anEntryReadsBackWithItsSitesNamesAndAnswersOrWithout() throws IOException {
        byte[] written = written(ENTRY, 42);
        ByteCursor in = new ByteCursor(written, 0, written.length);
        assertSame(ENTRY, ClassCache.readEntry(in, true, true));
        assertEquals(42, in.readInt());

        for (boolean answers : new boolean[] {true, false}) {
            in = new ByteCursor(written, 0, written.length);
            ClassCache.Entry partial = ClassCache.readEntry(in, false, answers);
            assertEquals(List.of(), partial.sites());
            assertEquals(answers ? ENTRY.answers() : List.of(), partial.answers());
            assertEquals(FIELDS, ClassCache.declared(partial.declared()));
            assertArrayEquals(ENTRY.bytes(), partial.bytes());
            assertEquals(42, in.readInt(), "skipping ends where reading does (answers read: " + answers + ")");
        }
    }

    @Test
    void aCutEntryOrALengthPastTheEndIsAnError() throws IOException {
        byte[] written = written(ENTRY, 42);
        for (int cut = 0; cut < written.length - 4; cut++) {
            ByteCursor in = new ByteCursor(written, 0, cut);
            assertThrows(EOFException.class, () -> ClassCache.readEntry(in, false, true), "cut at " + cut);
            ByteCursor skipping = new ByteCursor(written, 0, cut);
            assertThrows(EOFException.class, () -> ClassCache.readEntry(skipping, false, false), "cut at " + cut);
        }
        byte[] huge = written.clone();
        ClassCache.writeInt(huge, 0, Integer.MAX_VALUE); // the count of site names
        assertThrows(EOFException.class, () -> ClassCache.readEntry(new ByteCursor(huge, 0, huge.length), true, true));
    }

    @Test
    void aPackKeyIsTheNameAndTheChecksumInHexAsUtf8() {
        for (String name : List.of("app/Main", "java/util/HashMap$Node", "app/Caf\u00e9", "app/\u8868", "")) {
            for (int crc : new int[] {0, 1, 0xf, 0x10, 0xCAFE, 0x7fffffff, -1, 0x80000000}) {
                byte[] expected = (name + '@' + Integer.toHexString(crc)).getBytes(StandardCharsets.UTF_8);
                assertArrayEquals(expected, ClassPack.keyBytes(name, crc), name + " " + crc);
            }
        }
    }

    @Test
    void startUpEntriesReadBackAndADamagedFileReadsAsNone(@TempDir Path root) throws IOException {
        Path jar = Files.write(root.resolve("agent.jar"), new byte[] {1, 2, 3});
        ClassCache cache = ClassCache.open(root.resolve("cache"), jar);
        assertEquals(Map.of(), cache.startupEntries());
        ClassCache.Entry unchanged = new ClassCache.Entry(ClassCache.Entry.UNCHANGED, List.of(), List.of(), null);
        cache.saveStartupEntries(Map.of("java/util/HashMap", ENTRY, "java/util/TreeMap", unchanged));

        Map<String, ClassCache.Entry> read = ClassCache.open(root.resolve("cache"), jar).startupEntries();
        assertEquals(Set.of("java/util/HashMap", "java/util/TreeMap"), read.keySet());
        assertSame(ENTRY, read.get("java/util/HashMap"));
        assertTrue(read.get("java/util/TreeMap").unchanged());

        File file = startupFile(root.resolve("cache"));
        try (RandomAccessFile f = new RandomAccessFile(file, "rw")) {
            f.seek(f.length() - 2);
            int b = f.read();
            f.seek(f.length() - 2);
            f.write(b ^ 0x10);
        }
        assertEquals(Map.of(), ClassCache.open(root.resolve("cache"), jar).startupEntries());
    }

    @Test
    void keptFieldsAnswerWhenAskedAndADamagedSectionAnswersAsUnknownFields() throws IOException {
        VolatileFields fields = new VolatileFields();
        fields.defineKept("app/Base", ClassCache.declaredBytes(FIELDS));
        fields.defineKept("app/Sub", ClassCache.declaredBytes(
                new VolatileFields.Declared("app/Base", Set.of("own"), Set.of(), Set.of(), false)));
        assertEquals("app/Base", fields.orderedDeclarer(null, "app/Sub", "state", false), "volatile, declared above");
        assertEquals(null, fields.orderedDeclarer(null, "app/Sub", "count", false), "plain");
        assertEquals("app/Base", fields.hashCodeDeclarer(null, "app/Sub"));

        byte[] cut = ClassCache.declaredBytes(FIELDS);
        fields.defineKept("app/Cut", java.util.Arrays.copyOf(cut, cut.length - 1));
        assertEquals(null, fields.orderedDeclarer(null, "app/Cut", "state", false), "no class file to read: unknown");
    }

    private static void assertSame(ClassCache.Entry expected, ClassCache.Entry actual) throws IOException {
        assertEquals(expected.sites(), actual.sites());
        assertEquals(expected.answers(), actual.answers());
        assertEquals(ClassCache.declared(expected.declared()), ClassCache.declared(actual.declared()));
        assertArrayEquals(expected.bytes(), actual.bytes());
    }

    /** {@code entry} as the cache writes it, then {@code next}: what a reader must stop before. */
    private static byte[] written(ClassCache.Entry entry, int next) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(bytes);
        ClassCache.writeEntry(out, entry);
        out.writeInt(next);
        return bytes.toByteArray();
    }

    private static File startupFile(Path cacheRoot) throws IOException {
        try (var files = Files.walk(cacheRoot)) {
            return files.filter(p -> p.getFileName().toString().equals("startup")).findFirst().orElseThrow().toFile();
        }
    }
}
