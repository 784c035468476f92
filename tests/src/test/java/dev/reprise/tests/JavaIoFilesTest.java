package dev.reprise.tests;

import static dev.reprise.tests.Reprise.assertReplaysMatch;
import static dev.reprise.tests.Reprise.corpus;
import static dev.reprise.tests.Reprise.record;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.zip.CRC32;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * java.io files: RandomAccessFile, File metadata and changes, temp files. Each program is recorded
 * against real files, the files are then removed or changed, and every replay must print what the
 * recording printed without creating, changing or deleting anything.
 */
class JavaIoFilesTest {
    @TempDir
    Path tmp;

    @Test
    void randomAccessFileIsReplayedWithoutTheFile() throws IOException {
        Path data = Files.createDirectory(tmp.resolve("in")).resolve("data.txt");
        Files.writeString(data, "hello world line\r\nsecond line of data\nthird\n");
        Run recorded = record(tmp.resolve("rec"), corpus("corpus.files.RandomAccess", data.toString()));
        assertEquals(0, recorded.status(), recorded::toString);
        assertTrue(recorded.stdout().contains("first line: hello world line\npointer 18\n"), recorded::toString);
        assertTrue(Files.readString(data).startsWith("Xello world line"), "the recording writes for real");

        Files.delete(data);
        Map<String, String> before = snapshot(tmp.resolve("in"));
        assertReplaysMatch(tmp.resolve("rec"), recorded, 4);
        assertEquals(before, snapshot(tmp.resolve("in")), "replay changed the directory");
    }

    /**
     * Closing a file's channel closes the file, and closing the file closes its channel, a
     * mapped store's way to close: the files are gone before the replays, which must fail the
     * closed file's reads as the recording did and not change the directory.
     */
    @Test
    void closingThroughChannelsIsReplayedWithoutTheFiles() throws IOException {
        Path in = Files.createDirectory(tmp.resolve("in"));
        byte[] data = new byte[100];
        new Random(7).nextBytes(data);
        Files.write(in.resolve("data.bin"), data);
        Run recorded = record(tmp.resolve("rec"), corpus("corpus.files.ChannelCloses", in.toString()));
        assertEquals(0, recorded.status(), recorded::toString);
        assertTrue(recorded.stdout().contains("channel open false\nthe file is closed too: Stream Closed\n"),
                recorded::toString);
        assertTrue(recorded.stdout().contains("the output stream is closed too: Stream Closed\ndone\n"),
                recorded::toString);

        empty(in);
        assertChaosReplaysLeave(in, tmp.resolve("rec"), recorded);
    }

    /**
     * The JDK's image streams work on files through a RandomAccessFile from outside java.base,
     * and ImageIO picks the reader of a file by asking its providers in an order their identity
     * hashes give: the files are gone before the replays, which must read what was recorded.
     */
    @Test
    void imageStreamsAreReplayedWithoutTheFiles() throws IOException {
        Path in = Files.createDirectory(tmp.resolve("in"));
        Run recorded = record(tmp.resolve("rec"), corpus("corpus.files.ImageStreams", in.toString()));
        assertEquals(0, recorded.status(), recorded::toString);
        assertEquals("""
                output stream at 4 of 8
                input length 8
                int at 4: 42, then at 0: 7
                png written true
                png read 40x30 lit 60
                """, recorded.stdout().substring(0, recorded.stdout().indexOf("through the cache")), recorded::toString);
        assertTrue(recorded.stdout().endsWith(" bytes, lit 60\n"), recorded::toString);

        empty(in);
        assertChaosReplaysLeave(in, tmp.resolve("rec"), recorded);
    }

    /**
     * A failed operation's exception shows the stack trace a run without Reprise shows, with no
     * frame of Reprise's, and every replay shows it again with the files gone: a test runner
     * prints these traces for each failed test.
     */
    @Test
    void failedOperationsShowThePlainRunsStackTraces() throws IOException {
        Path dir = Files.createDirectory(tmp.resolve("in"));
        List<String> command = corpus("corpus.files.FailureTraces", dir.toString());
        Run plain = Reprise.exec(command, null, Map.of(), null);
        Run recorded = record(tmp.resolve("rec"), command);
        assertEquals(0, recorded.status(), recorded::toString);
        assertTrue(recorded.stdout().contains("\tat java.base/java.io.FileInputStream.open0(Native Method)\n"
                + "\tat java.base/java.io.FileInputStream.open(FileInputStream.java:"), recorded::toString);
        assertEquals(plain.stdout(), recorded.stdout(), "the recorded traces differ from a plain run's");
        Files.delete(dir);
        assertReplaysMatch(tmp.resolve("rec"), recorded, 3);
    }

    /**
     * A zip of sources read through ZipInputStream (the JDK's inflater), tokenized into a HashMap
     * and sorted by a stream: the zip is gone before the replays, which print the same counts.
     */
    @Test
    void zipOfSourcesIsReplayedWithoutTheZip() throws IOException {
        Path zip = Files.createDirectory(tmp.resolve("in")).resolve("src.zip");
        try (ZipOutputStream out = new ZipOutputStream(Files.newOutputStream(zip))) {
            for (int i = 0; i < 300; i++) {
                out.putNextEntry(new ZipEntry("p" + i % 7 + "/C" + i + (i % 10 == 0 ? ".txt" : ".java")));
                out.write(("class C" + i + " { int f" + i % 13 + " = " + i + "; String s = \"x" + i % 5 + "\"; }\n")
                        .repeat(1 + i % 4).getBytes(StandardCharsets.UTF_8));
                out.closeEntry();
            }
        }
        Run recorded = record(tmp.resolve("rec"), corpus("corpus.single.SourceStats", zip.toString(), "200"));
        assertEquals(0, recorded.status(), recorded::toString);
        assertTrue(recorded.stdout().startsWith("files 200 chars "), recorded::toString);

        Files.delete(zip);
        Reprise.assertChaosReplaysMatch(tmp.resolve("rec"), recorded, 3);
    }

    /**
     * Archives among the program's inputs, opened as ZipFiles: a data archive, a file that is no
     * archive (the ZIP source closes the file it opened), a missing one and a directory. The
     * recording keeps a copy of the archive and the plain file; the replays run without them.
     */
    @Test
    void inputArchivesAreReplayedWithoutTheFiles() throws IOException {
        Path in = Files.createDirectory(tmp.resolve("in"));
        try (ZipOutputStream out = new ZipOutputStream(Files.newOutputStream(in.resolve("data.zip")))) {
            for (String name : List.of("a.txt", "b/c.txt")) {
                out.putNextEntry(new ZipEntry(name));
                out.write(("hello from " + name + "\n").getBytes(StandardCharsets.UTF_8));
                out.closeEntry();
            }
        }
        Files.writeString(in.resolve("notes.txt"), "no archive\n");
        Run recorded = record(tmp.resolve("rec"), corpus("corpus.files.InputArchives", in.toString()));
        assertEquals(0, recorded.status(), recorded::toString);
        assertEquals("""
                data.zip: a.txt b/c.txt; a.txt says hello from a.txt
                notes.txt: ZipException
                missing.zip: NoSuchFileException
                .: FileNotFoundException
                """, recorded.stdout(), recorded::toString);

        empty(in);
        assertChaosReplaysLeave(in, tmp.resolve("rec"), recorded);
    }

    /**
     * Calls through the program's own interfaces on its own subclasses of RandomAccessFile and
     * FileInputStream name no JDK class (a database's storage layer); one subclass overrides
     * {@code length} and {@code getFilePointer}, which must run once per call.
     */
    @ParameterizedTest
    @ValueSource(strings = {"rto", "to"})
    void subclassedFilesAreReplayedWithoutTheFile(String order) throws IOException {
        Path in = Files.createDirectory(tmp.resolve("in"));
        Path data = in.resolve("data.txt");
        Path dir = tmp.resolve("rec");
        List<String> args = new ArrayList<>(List.of("record", "--order", order, "-o", dir.toString(), "--"));
        args.addAll(corpus("corpus.files.SubclassedFiles", data.toString()));
        Run recorded = Reprise.reprise(args, null, Map.of(), null);
        assertEquals(0, recorded.status(), recorded::toString);
        assertTrue(recorded.stdout().contains("length after truncate 20\npointer 16 of 20, 3 calls\n"), recorded::toString);

        Files.delete(data);
        assertChaosReplaysLeave(in, dir, recorded);
    }

    @Test
    void directoryListingAndMetadataAreReplayedAfterTheDirectoryChanged() throws IOException {
        Path dir = Files.createDirectory(tmp.resolve("dir"));
        for (String name : List.of("b.txt", "a.txt", "zz.txt", "c1.txt", "m.txt")) {
            Files.writeString(dir.resolve(name), "content of " + name);
        }
        Files.createDirectory(dir.resolve("subdir"));
        Run recorded = record(tmp.resolve("rec"), corpus("corpus.files.Listing", dir.toString()));
        assertEquals(0, recorded.status(), recorded::toString);
        assertTrue(recorded.stdout().contains("mkdirs true mkdir again false\ncreateNewFile true again false\n"),
                recorded::toString);

        empty(dir);
        Files.writeString(dir.resolve("a.txt"), "other content, other length");
        Files.setLastModifiedTime(dir.resolve("a.txt"), FileTime.fromMillis(123_000));
        Files.writeString(dir.resolve("new.txt"), "new");
        Map<String, String> before = snapshot(dir);
        assertReplaysMatch(tmp.resolve("rec"), recorded, 4);
        assertEquals(before, snapshot(dir), "replay changed the directory");
    }

    /**
     * The preferences store makes its directory, sets its permissions and locks its files in
     * native code: a replay does none of it, and prints what the recording printed (the JDK's
     * note that it made the directory among it) where the directory does not exist.
     */
    @Test
    void preferencesAreReplayedWithoutTheirStore() throws IOException {
        Path store = tmp.resolve("prefs");
        List<String> command = new ArrayList<>(corpus("corpus.files.Preferences"));
        command.add(1, "-Djava.util.prefs.userRoot=" + store);
        Run recorded = record(tmp.resolve("rec"), command);
        assertEquals(0, recorded.status(), recorded::toString);
        assertEquals("greeting hello, count 1\nchildren child\nafter removal \n", recorded.stdout(), recorded::toString);
        assertTrue(recorded.programStderr().contains("INFO: Created user preferences directory."), recorded::toString);
        assertTrue(Files.isDirectory(store.resolve(".java/.userPrefs/corpus")), "the recording made the store");

        try (Stream<Path> all = Files.walk(store)) {
            for (Path p : all.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
        assertReplaysMatch(tmp.resolve("rec"), recorded, 3);
        assertTrue(Files.notExists(store), "a replay made the store");
    }

    /** With "exit" the JDK's delete-on-exit hook runs on the recorded main thread. */
    @ParameterizedTest
    @ValueSource(strings = {"return", "exit"})
    void tempFilesAreReplayedWithoutCreatingOrDeleting(String ending) throws IOException {
        Path dir = Files.createDirectory(tmp.resolve("temp"));
        Run plain = Reprise.exec(corpus("corpus.files.TempFiles", dir.toString(), ending), null, Map.of(), null);
        Run recorded = record(tmp.resolve("rec"), corpus("corpus.files.TempFiles", dir.toString(), ending));
        assertEquals(ending.equals("exit") ? 4 : 0, recorded.status(), recorded::toString);
        assertNotEquals(plain.stdout(), recorded.stdout(), "temp-file names should differ from run to run");
        List<String> names = tempNames(recorded.stdout());
        assertEquals(3, names.size(), recorded::toString);
        assertEquals(List.of(), List.of(list(dir)), "deleteOnExit deletes the temp files when recording");

        // Files with the recorded names: a replay that created or deleted them would show.
        for (String name : names) {
            Files.writeString(dir.resolve(name), "not the recorded content");
        }
        Map<String, String> before = snapshot(dir);
        assertReplaysMatch(tmp.resolve("rec"), recorded, 4);
        assertEquals(before, snapshot(dir), "replay changed the directory");
    }

    @Test
    void readingAnotherFileDiverges() throws IOException {
        Path in = Files.createDirectory(tmp.resolve("in"));
        Path data = in.resolve("data.txt");
        Path other = in.resolve("other.txt");
        Files.writeString(data, "recorded content\nline two\n");
        Files.writeString(other, "recorded content\nline two\n");
        Run recorded = record(tmp.resolve("rec"), corpus("corpus.files.RandomAccess", data.toString()));
        assertEquals(0, recorded.status(), recorded::toString);

        Reprise.editManifest(tmp.resolve("rec"), json -> json.replace(data.toString(), other.toString()));
        Map<String, String> before = snapshot(in);
        Run replayed = Reprise.replay(tmp.resolve("rec"));
        assertEquals(3, replayed.status(), replayed::toString);
        assertTrue(replayed.stderr().contains("reprise: replay diverged"), replayed::toString);
        assertTrue(replayed.stderr().contains(other.toString()), "the report shows what the program was asked to read");
        assertEquals(before, snapshot(in), "replay changed the directory");
    }

    private static List<String> tempNames(String stdout) {
        List<String> names = new ArrayList<>();
        Matcher m = Pattern.compile("^(rep\\d-\\d+\\.tmp) length", Pattern.MULTILINE).matcher(stdout);
        while (m.find()) {
            names.add(m.group(1));
        }
        return names;
    }

    private static String[] list(Path dir) {
        String[] names = dir.toFile().list();
        return names == null ? new String[0] : names;
    }

    /** Chaos replays of {@code rec} (three in the full run) match {@code recorded} and leave {@code dir} as it was. */
    private static void assertChaosReplaysLeave(Path dir, Path rec, Run recorded) {
        Map<String, String> before = snapshot(dir);
        Reprise.assertChaosReplaysMatch(rec, recorded, 3);
        assertEquals(before, snapshot(dir), "replay changed the directory");
    }

    /** Deletes the entries of {@code dir}, whose subdirectories are empty. */
    private static void empty(Path dir) throws IOException {
        try (Stream<Path> entries = Files.list(dir)) {
            for (Path p : entries.toList()) {
                Files.delete(p);
            }
        }
    }

    /** Every entry under {@code root}: type, size, modification time, permissions and content checksum. */
    private static Map<String, String> snapshot(Path root) {
        Map<String, String> entries = new TreeMap<>();
        try (Stream<Path> all = Files.walk(root)) {
            for (Path p : all.toList()) {
                String what = Files.isDirectory(p) ? "dir" : "file " + Files.size(p) + " crc " + crc(p);
                entries.put(root.relativize(p).toString(), what + " mtime " + Files.getLastModifiedTime(p).toMillis()
                        + " " + java.nio.file.attribute.PosixFilePermissions.toString(Files.getPosixFilePermissions(p)));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return entries;
    }

    private static long crc(Path p) throws IOException {
        CRC32 crc = new CRC32();
        crc.update(Files.readAllBytes(p));
        return crc.getValue();
    }
}
