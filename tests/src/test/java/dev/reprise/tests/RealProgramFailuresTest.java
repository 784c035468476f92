package dev.reprise.tests;

import static dev.reprise.tests.Reprise.corpus;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * What real programs (javac and jar, a database's file sync, JUnit's console launcher, JRuby's
 * and Jython's native access, SQLite's native database) did that their replays did not repeat, each in a small corpus
 * program: recorded under each ordering, then replayed with several chaos seeds, each replay
 * printing what the recording printed and exiting with its status.
 */
class RealProgramFailuresTest {
    private static final int CHAOS_REPLAYS = 4;

    @TempDir
    Path tmp;

    @ParameterizedTest(name = "{0} under {2}")
    @CsvSource({
        // The exit is the JDK's call (as javac's and jar's main classes make it), not the program's.
        "corpus.single.ExitInJdkCode, 5, rto", "corpus.single.ExitInJdkCode, 5, to",
        // A file's descriptor, which the replay does not hold, asked whether it is valid and synced.
        "corpus.files.DescriptorSync, 0, rto", "corpus.files.DescriptorSync, 0, to",
        // Map keys whose hash is java.util's code combining identity hashes (a test framework's store).
        "corpus.single.CompositeKeys, 0, rto", "corpus.single.CompositeKeys, 0, to",
        // Hashes of objects the JDK made or hashed first: modules, a loader's module, the main thread.
        "corpus.single.JdkObjectHashes, 0, rto", "corpus.single.JdkObjectHashes, 0, to",
        // The JDK's logger registry, which the collector empties, listed by its shutdown hook.
        "corpus.single.DroppedLoggers, 0, rto", "corpus.single.DroppedLoggers, 0, to",
        // A native library extracted to a temp file, loaded and deleted in a class initializer (jffi's).
        "corpus.files.ExtractedLibrary, 0, rto", "corpus.files.ExtractedLibrary, 0, to",
    })
    void replaysAsRecorded(String program, int status, String order) {
        Path dir = tmp.resolve("rec");
        List<String> args = new ArrayList<>(List.of("record", "--order", order, "-o", dir.toString(), "--"));
        args.addAll(corpus(program));
        Run recorded = Reprise.reprise(args, null, Map.of(), null);
        assertEquals(status, recorded.status(), recorded::toString);
        Reprise.assertChaosReplaysMatch(dir, recorded, CHAOS_REPLAYS);
    }

    /**
     * Mockito's inline mock maker weaves into {@code Object.equals}, and Reprise's own lookup of
     * a class in its set of ordered fields' owners, one owner here, calls it (JDK 25's set of one
     * compares with its empty marker): the advice's map lookups were recorded as the program's,
     * in whichever thread loaded a class first, and every replay on JDK 25 diverged. Mockito's
     * own stubbing races on a plain field when two threads call mocks: recorded, as a user
     * would, until the recording learns nothing new.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"rto", "to"})
    void adviceInRepriseOwnLookupsIsNotRecorded(String order) {
        Path dir = null;
        Run recorded = null;
        for (int looked = 0; looked < 3 && (recorded == null || recorded.stderr().contains("The next recording")); looked++) {
            dir = tmp.resolve("rec" + looked);
            List<String> args = new ArrayList<>(List.of("record", "--order", order,
                    "--order-field", "corpus.threads.MocksAcrossThreads$Tally.total", "-o", dir.toString(), "--"));
            args.addAll(corpus("corpus.threads.MocksAcrossThreads"));
            recorded = Reprise.reprise(args, null, Map.of(), null);
            assertEquals(0, recorded.status(), recorded::toString);
        }
        Reprise.assertChaosReplaysMatch(dir, recorded, CHAOS_REPLAYS);
    }

    /**
     * JNA calls C functions where no hook sees them: a recording does not load its native
     * library, says so, and the program takes its Java way; every replay does the same.
     */
    @ParameterizedTest
    @ValueSource(strings = {"rto", "to"})
    void foreignFunctionLibraryIsNotLoaded(String order) {
        List<String> program = corpus("corpus.files.ForeignCalls");
        Run plain = Reprise.exec(program, null, Map.of(), null);
        assertEquals("own pid through jna: true\n", plain.stdout(), plain::toString);
        Path dir = tmp.resolve("rec");
        List<String> args = new ArrayList<>(List.of("record", "--order", order, "-o", dir.toString(), "--"));
        args.addAll(program);
        Run recorded = Reprise.reprise(args, null, Map.of(), null);
        assertEquals(0, recorded.status(), recorded::toString);
        assertEquals("own pid through java: true\n", recorded.stdout(), recorded::toString);
        assertTrue(recorded.stderr().contains("reprise: not loading ")
                && recorded.stderr().contains(": a foreign-function library calls the system"), recorded::toString);
        Reprise.assertChaosReplaysMatch(dir, recorded, CHAOS_REPLAYS);
    }

    /**
     * Netty's native epoll transport does its network I/O where no hook sees it: a recording does
     * not load it, says so, and Netty falls back to the JDK's sockets; every replay throws what
     * the recording's load threw. A load of a missing file throws again on replay, as recorded.
     */
    @ParameterizedTest
    @ValueSource(strings = {"rto", "to"})
    void nativeNetworkTransportIsNotLoaded(String order) {
        List<String> program = corpus("corpus.files.NamedNativeLibrary");
        Run plain = Reprise.exec(program, null, Map.of(), null);
        assertEquals("epoll available: true\nrefused a missing library: Can't load library: <file>\n", plain.stdout(),
                plain::toString);
        Path dir = tmp.resolve("rec");
        List<String> args = new ArrayList<>(List.of("record", "--order", order, "-o", dir.toString(), "--"));
        args.addAll(program);
        Run recorded = Reprise.reprise(args, null, Map.of(), null);
        assertEquals(0, recorded.status(), recorded::toString);
        assertTrue(recorded.stdout().startsWith("epoll available: false\nbecause: "), recorded::toString);
        assertTrue(recorded.stdout().endsWith("refused a missing library: Can't load library: <file>\n"), recorded::toString);
        assertTrue(recorded.stderr().contains("reprise: not loading libnetty_transport_native_epoll"), recorded::toString);
        Reprise.assertChaosReplaysMatch(dir, recorded, CHAOS_REPLAYS);
    }

    /**
     * SQLite's JDBC driver opens, reads and writes its database in native code, where no hook of
     * Java's file I/O sees it: the driver's native methods are recorded at their boundary, and a
     * replay runs none of them. Each replay, in another directory and without a network, prints
     * what the recording printed with the database gone (the rows, an SQL error with its code),
     * and leaves no file behind. Snappy's native code only computes, and runs on replay.
     */
    @ParameterizedTest
    @ValueSource(strings = {"rto", "to"})
    void aDatabaseInNativeCodeReplaysWithoutItsFile(String order) throws IOException {
        Path work = Files.createDirectories(tmp.resolve("work"));
        Run made = Reprise.exec(corpus("corpus.files.EmbeddedDatabase", "create", "stock.db"), null, Map.of(), work);
        assertEquals(0, made.status(), made::toString);
        Files.copy(work.resolve("stock.db"), work.resolve("plain.db"));
        Run plain = Reprise.exec(corpus("corpus.files.EmbeddedDatabase", "update", "plain.db"), null, Map.of(), work);
        assertTrue(plain.stdout().contains("doubled 2\nrefused: [SQLITE_ERROR]")
                && plain.stdout().contains("zucchini 3 0.75 no photo null\nsnappy: "), plain::toString);

        Path dir = tmp.resolve("rec");
        List<String> args = new ArrayList<>(List.of("record", "--order", order, "-o", dir.toString(), "--"));
        args.addAll(corpus("corpus.files.EmbeddedDatabase", "update", "stock.db"));
        Run recorded = Reprise.reprise(args, null, Map.of(), work);
        assertEquals(0, recorded.status(), recorded::toString);
        assertEquals(plain.stdout(), recorded.stdout(), recorded::toString);
        Reprise.deleteTree(work);

        Path elsewhere = Files.createDirectories(tmp.resolve("elsewhere"));
        for (int seed = 1; seed <= Reprise.chaosReplays(CHAOS_REPLAYS); seed++) {
            List<String> cmd = new ArrayList<>(List.of("unshare", "-n"));
            cmd.addAll(Reprise.repriseCommand(List.of("replay", dir.toString(), "--chaos", Integer.toString(seed))));
            Run replayed = Reprise.exec(cmd, null, Map.of(), elsewhere);
            int s = seed;
            assertEquals(recorded.stdout(), replayed.stdout(), () -> "stdout differs, chaos seed " + s + "\n" + replayed);
            assertEquals(recorded.programStderr(), replayed.programStderr(), () -> "stderr differs, seed " + s + "\n" + replayed);
            assertEquals(recorded.status(), replayed.status(), () -> "status differs, seed " + s + "\n" + replayed);
        }
        assertFalse(Files.exists(work), "a replay made the database's directory again");
        try (var left = Files.list(elsewhere)) {
            assertEquals(List.of(), left.toList(), "files a replay wrote where it ran");
        }
    }

    /** The recording's copy of a native library is checked before a replay loads it. */
    @Test
    void damagedLibraryCopyIsRefused() throws IOException {
        Path dir = tmp.resolve("rec");
        Run recorded = Reprise.record(dir, corpus("corpus.files.ExtractedLibrary"));
        assertEquals(0, recorded.status(), recorded::toString);
        Path copy;
        try (var files = Files.walk(dir)) {
            copy = files.filter(f -> Files.isRegularFile(f) && f.getParent().getFileName().toString().startsWith("native-"))
                    .findFirst().orElseThrow();
        }
        // The copy keeps the program's file's name (a library may read its own path as it loads).
        assertTrue(copy.getFileName().toString().matches("stub\\d+\\.so"), copy::toString);
        byte[] b = Files.readAllBytes(copy);
        b[b.length / 2] ^= 0x20;
        Files.write(copy, b);
        Run replay = Reprise.replay(dir);
        assertEquals(4, replay.status(), replay::toString);
        assertEquals("", replay.stdout(), replay::toString);
        // On JDK 25 the program's stderr first holds the JDK's warning about System.load.
        assertTrue(replay.stderr().lines().anyMatch(l -> l.startsWith("reprise: recording unreadable: " + copy)),
                replay::toString);
    }
}
