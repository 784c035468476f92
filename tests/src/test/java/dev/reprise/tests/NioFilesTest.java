package dev.reprise.tests;

import static dev.reprise.tests.Reprise.assertReplaysMatch;
import static dev.reprise.tests.Reprise.corpus;
import static dev.reprise.tests.Reprise.record;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code java.nio.file.Files} and {@code FileChannel}: each program is recorded against real
 * files, the files are then changed or removed, and every replay must print what the recording
 * printed while leaving the disk exactly as it found it.
 */
class NioFilesTest {
    @TempDir
    Path tmp;

    private Path dir;

    private void inputs() throws IOException {
        dir = Files.createDirectory(tmp.resolve("files"));
        Files.writeString(dir.resolve("text.txt"), "line one\nline two\nthird\n");
        byte[] data = new byte[5000];
        new Random().nextBytes(data);
        Files.write(dir.resolve("data.bin"), data);
    }

    @Test
    void readsAndMetadataAreReplayedAfterTheFilesChangeOrVanish() throws IOException {
        inputs();
        Run recorded = record(tmp.resolve("rec"), corpus("corpus.nio.ReadFiles", dir.toString()));
        assertEquals(0, recorded.status(), recorded::toString);
        assertTrue(recorded.stdout().contains("lines: LINE ONE|LINE TWO|THIRD"), recorded::toString);
        assertTrue(recorded.stdout().contains("missing: NoSuchFileException missing"), recorded::toString);
        Files.writeString(dir.resolve("text.txt"), "changed\n");
        Files.delete(dir.resolve("data.bin"));
        assertReplaysLeaveDiskAlone(recorded);
    }

    @Test
    void changesAreReplayedWithoutTouchingTheDisk() throws IOException {
        inputs();
        Run recorded = record(tmp.resolve("rec"), corpus("corpus.nio.WriteFiles", dir.toString()));
        assertEquals(0, recorded.status(), recorded::toString);
        assertTrue(recorded.stdout().contains("copy again: FileAlreadyExistsException"), recorded::toString);
        assertTrue(recorded.stdout().contains("deleteIfExists: false true"), recorded::toString);
        assertTrue(Files.isRegularFile(dir.resolve("x/y/z/c-moved.txt")), "the recording made its changes");
        deleteTree(dir);
        inputs();
        assertReplaysLeaveDiskAlone(recorded);
    }

    /**
     * The watch service's events are the kernel's, which a replay, writing no file, would not
     * get: they come from the recording, batched into keys as the recorded run's were, and the
     * poller hands them to the program's thread in the recorded order.
     */
    @ParameterizedTest(name = "under {0}")
    @ValueSource(strings = {"rto", "to"})
    void watchServiceEventsAreReplayedWithoutTheFiles(String order) throws IOException {
        dir = Files.createDirectory(tmp.resolve("watched"));
        Run recorded = record(tmp.resolve("rec"), order, corpus("corpus.files.WatchedDirectory", dir.toString()));
        assertEquals(0, recorded.status(), recorded::toString);
        for (String line : List.of("ENTRY_CREATE a.txt x", "ENTRY_CREATE b.txt x", "ENTRY_DELETE b.txt x1\nthen: null\nclosed\n")) {
            assertTrue(recorded.stdout().contains(line), recorded::toString);
        }
        assertTrue(Files.isRegularFile(dir.resolve("a.txt")), "the recording wrote its file");
        Files.delete(dir.resolve("a.txt"));
        assertReplaysLeaveDiskAlone(recorded);
    }

    @Test
    void fileChannelsAreReplayedAfterTheFilesVanish() throws IOException {
        inputs();
        Run recorded = record(tmp.resolve("rec"), corpus("corpus.nio.FileChannels", dir.toString()));
        assertEquals(0, recorded.status(), recorded::toString);
        assertTrue(recorded.stdout().contains("readv 5 2+3 then -1"), recorded::toString);
        assertTrue(recorded.stdout().contains("transferFrom 5000 size 5104"), recorded::toString);
        deleteTree(dir);
        Files.createDirectory(dir);
        assertReplaysLeaveDiskAlone(recorded);
    }

    /**
     * The listing order is the recording machine's: replay prints it after the files are recreated
     * in reverse order, and after half of them are gone and a live run lists differently.
     */
    @Test
    void directoryOrderIsReplayed() throws IOException {
        dir = Files.createDirectory(tmp.resolve("files"));
        List<String> names = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            names.add("f" + Integer.toString(i * 7919 % 1000, 36) + ".txt");
        }
        create(names);
        Run recorded = record(tmp.resolve("rec"), corpus("corpus.nio.ListFiles", dir.toString()));
        assertEquals(0, recorded.status(), recorded::toString);
        for (String n : names) {
            assertTrue(recorded.stdout().contains("sub/" + n), () -> n + " not listed\n" + recorded);
        }
        List<String> reversed = new ArrayList<>(names);
        Collections.reverse(reversed);
        deleteTree(dir);
        create(reversed);
        assertReplaysLeaveDiskAlone(recorded);
        deleteTree(dir);
        create(reversed.subList(0, 20));
        Run live = Reprise.exec(corpus("corpus.nio.ListFiles", dir.toString()), null, Map.of(), null);
        assertNotEquals(recorded.stdout(), live.stdout(), "the directory should list differently now");
        assertReplaysLeaveDiskAlone(recorded);
    }

    /**
     * Mapped memory is read and written with no call the replay could answer: the replay maps the
     * recording's copy of each region, and the program's writes through a mapping stay in its memory.
     */
    @Test
    void mappedRegionsAreReplayedAfterTheFilesVanish() throws IOException {
        assertMappingsReplay("corpus.nio.MappedFiles", "read-only 5000 bytes, read-only true, sum ",
                "read-write 4096 bytes, read-only false, after writes 7 42", "file after force 7 42",
                "private sees 7, file keeps 7, private after write 99", "empty 0");
    }

    /** The same through {@code MemorySegment}s an {@code Arena} owns, which JDK 22 added. */
    @Test
    void mappedSegmentsAreReplayedAfterTheFilesVanish() throws IOException {
        assumeTrue(Runtime.version().feature() >= 22, "FileChannel maps into an Arena from JDK 22");
        assertMappingsReplay("corpus.nio.MappedSegments", "read-only 5000 bytes, read-only true, sum ",
                "read-write 4096 bytes, after writes 7 42", "file after force 7 42",
                "private sees 7, file keeps 7, private after write 99");
    }

    /** Records {@code program} over the inputs, checks it printed {@code lines}, then replays it with the files gone. */
    private void assertMappingsReplay(String program, String... lines) throws IOException {
        inputs();
        Run recorded = record(tmp.resolve("rec"), corpus(program, dir.toString()));
        assertEquals(0, recorded.status(), recorded::toString);
        for (String line : lines) {
            assertTrue(recorded.stdout().contains(line), () -> "no '" + line + "'\n" + recorded);
        }
        deleteTree(dir);
        Files.createDirectory(dir);
        assertReplaysLeaveDiskAlone(recorded);
    }

    private void create(List<String> names) throws IOException {
        Files.createDirectories(dir.resolve("sub/deeper"));
        Files.writeString(dir.resolve("sub/deeper/last.txt"), "deep");
        for (String n : names) {
            Files.writeString(dir.resolve(n), n.repeat(names.size()));
            Files.writeString(dir.resolve("sub").resolve(n), n);
        }
    }

    private void assertReplaysLeaveDiskAlone(Run recorded) throws IOException {
        Map<String, String> before = snapshot(dir);
        assertReplaysMatch(tmp.resolve("rec"), recorded, 3);
        assertEquals(before, snapshot(dir), "replay changed files");
    }

    /** Every file and directory under {@code root}: type, size, modification time and content. */
    private static Map<String, String> snapshot(Path root) throws IOException {
        Map<String, String> s = new TreeMap<>();
        try (Stream<Path> all = Files.walk(root)) {
            for (Path p : (Iterable<Path>) all::iterator) {
                BasicFileAttributes a = Files.readAttributes(p, BasicFileAttributes.class);
                String content = a.isRegularFile() ? Integer.toString(Arrays.hashCode(Files.readAllBytes(p))) : "dir";
                s.put(root.relativize(p).toString(), a.size() + " " + a.lastModifiedTime() + " " + content);
            }
        }
        return s;
    }

    private static void deleteTree(Path root) throws IOException {
        try (Stream<Path> all = Files.walk(root)) {
            for (Path p : (Iterable<Path>) all.sorted(Comparator.reverseOrder())::iterator) {
                Files.delete(p);
            }
        }
    }
}
