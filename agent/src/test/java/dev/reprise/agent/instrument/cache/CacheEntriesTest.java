package dev.reprise.agent.instrument.cache;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
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

import dev.reprise.agent.instrument.VolatileFields;

/**
 * Cache entries read back as they were written: a class load parses one from the class path's
 * pack, and start-up the JDK classes' from one file. A read that went wrong is a miss, which
 * only costs time, so nothing but these tests would show it.
 */
class CacheEntriesTest {
    private static final VolatileFields.Declared FIELDS =
            new VolatileFields.Declared("app/Base", Set.of("count", "state", "name", "table"), Set.of("state"), Set.of("name"), Set.of("table"), true);
    private static final CacheEntry ENTRY = new CacheEntry(new byte[] {(byte) 0xCA, (byte) 0xFE, 0, 1},
            List.of("app.Main.run:12", "app.Main.run:14", "app.Main.<clinit>:3"),
            List.of("app/Other;count;0;app/Other", "app/Key;;h;"), CacheEntry.declaredBytes(FIELDS));

    @Test
    void anEntryReadsBackWithItsSitesNamesAndAnswersOrWithout() throws IOException {
        byte[] written = written(ENTRY, 42);
        ByteCursor in = new ByteCursor(written, 0, written.length);
        assertSame(ENTRY, CacheEntry.read(in, true, true));
        assertEquals(42, in.readInt());

        for (boolean answers : new boolean[] {true, false}) {
            in = new ByteCursor(written, 0, written.length);
            CacheEntry partial = CacheEntry.read(in, false, answers);
            assertEquals(List.of(), partial.sites());
            assertEquals(answers ? ENTRY.answers() : List.of(), partial.answers());
            assertEquals(FIELDS, CacheEntry.readDeclared(partial.declared()));
            assertArrayEquals(ENTRY.bytes(), partial.bytes());
            assertEquals(42, in.readInt(), "skipping ends where reading does (answers read: " + answers + ")");
        }
    }

    @Test
    void aCutEntryOrALengthPastTheEndIsAnError() throws IOException {
        byte[] written = written(ENTRY, 42);
        for (int cut = 0; cut < written.length - 4; cut++) {
            ByteCursor in = new ByteCursor(written, 0, cut);
            assertThrows(EOFException.class, () -> CacheEntry.read(in, false, true), "cut at " + cut);
            ByteCursor skipping = new ByteCursor(written, 0, cut);
            assertThrows(EOFException.class, () -> CacheEntry.read(skipping, false, false), "cut at " + cut);
        }
        byte[] huge = written.clone();
        BigEndian.writeInt(huge, 0, Integer.MAX_VALUE); // the count of site names
        assertThrows(EOFException.class, () -> CacheEntry.read(new ByteCursor(huge, 0, huge.length), true, true));
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
        ClassCache cache = ClassCache.open(root.resolve("cache"), root.resolve("cache"), jar);
        assertEquals(Map.of(), cache.startupEntries());
        CacheEntry unchanged = new CacheEntry(CacheEntry.UNCHANGED, List.of(), List.of(), null);
        cache.saveStartupEntries(Map.of("java/util/HashMap", ENTRY, "java/util/TreeMap", unchanged));

        Map<String, CacheEntry> read = ClassCache.open(root.resolve("cache"), root.resolve("cache"), jar).startupEntries();
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
        assertEquals(Map.of(), ClassCache.open(root.resolve("cache"), root.resolve("cache"), jar).startupEntries());
    }

    /**
     * A run that orders fields of the program's own keeps its JDK classes where a run that orders
     * none does: neither instruments the JDK again for the other. Its program's classes stay apart.
     */
    @Test
    void runsOrderingOtherFieldsShareTheJdksEntries(@TempDir Path root) throws IOException {
        Path jar = Files.write(root.resolve("agent.jar"), new byte[] {1, 2, 3});
        Path base = root.resolve("cache");
        Path fields = base.resolve("fields-1");
        ClassCache plain = ClassCache.open(base, base, jar);
        plain.saveStartupEntries(Map.of("java/util/HashMap", ENTRY));
        byte[] jdkClass = {1, 2, 3, 4};
        byte[] appClass = {5, 6, 7, 8};
        plain.put("java/util/TreeMap", true, jdkClass, ENTRY);
        plain.put("app/Main", true, appClass, ENTRY);
        plain.savePack();

        ClassCache ordering = ClassCache.open(fields, base, jar);
        assertEquals(Set.of("java/util/HashMap"), ordering.startupEntries().keySet());
        assertSame(ENTRY, ordering.get("java/util/TreeMap", true, jdkClass));
        assertNull(ordering.get("app/Main", true, appClass));
        assertEquals(Map.of(), ClassCache.open(fields, fields, jar).startupEntries());
    }

    private static void assertSame(CacheEntry expected, CacheEntry actual) throws IOException {
        assertEquals(expected.sites(), actual.sites());
        assertEquals(expected.answers(), actual.answers());
        assertEquals(CacheEntry.readDeclared(expected.declared()), CacheEntry.readDeclared(actual.declared()));
        assertArrayEquals(expected.bytes(), actual.bytes());
    }

    /** {@code entry} as the cache writes it, then {@code next}: what a reader must stop before. */
    private static byte[] written(CacheEntry entry, int next) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(bytes);
        CacheEntry.write(out, entry);
        out.writeInt(next);
        return bytes.toByteArray();
    }

    private static File startupFile(Path cacheRoot) throws IOException {
        try (var files = Files.walk(cacheRoot)) {
            return files.filter(p -> p.getFileName().toString().equals("startup")).findFirst().orElseThrow().toFile();
        }
    }
}
