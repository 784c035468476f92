package dev.reprise.tests;

import static dev.reprise.tests.Reprise.assertReplaysMatch;
import static dev.reprise.tests.Reprise.corpus;
import static dev.reprise.tests.Reprise.record;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Single-threaded sources of nondeterminism: each corpus program recorded, then replayed several
 * times. These check more than that; the programs that need no more carry {@code corpus.Expect}
 * and run in {@link CorpusTest}.
 */
class SingleThreadedSourcesTest {
    @TempDir
    Path tmp;

    /**
     * Where the JVM's object headers cannot take Reprise's identity hashes (JDK 17's biased
     * locking marks every new object's header biasable, so start-up finds writing one fails), the
     * values are kept in a table instead: replays still match.
     */
    @ParameterizedTest
    @ValueSource(strings = {"corpus.single.HashKeyedCollections", "corpus.single.IdentityHashedLocks"})
    void identityHashesReplayWhereHeadersTakeNoValue(String program) {
        assumeTrue(Runtime.version().feature() < 18, "biased locking is gone after JDK 17");
        List<String> command = List.of(Reprise.JAVA, "-XX:+UseBiasedLocking", "-cp", Reprise.CORPUS_JAR.toString(), program);
        Run recorded = record(tmp.resolve("rec"), command);
        assertEquals(0, recorded.status(), recorded::toString);
        assertFalse(recorded.stdout().isBlank(), recorded::toString);
        assertReplaysMatch(tmp.resolve("rec"), recorded, 3);
    }

    /**
     * Recording does not change an object's identity hash while its monitor is locked or inflated
     * (PMD's jar file cache lost its entries so).
     */
    @Test
    void lockedObjectsKeepTheirIdentityHashes() {
        Run plain = Reprise.exec(corpus("corpus.single.LockedHashes"), null, Map.of(), null);
        assertFalse(plain.stdout().contains("CHANGED"), plain::toString);
        Run recorded = record(tmp.resolve("rec"), corpus("corpus.single.LockedHashes"));
        assertEquals(plain.stdout(), recorded.stdout(), recorded::toString);
        assertReplaysMatch(tmp.resolve("rec"), recorded, 3);
    }

    /**
     * An object first hashed under a JDK monitor its thread held keeps its value once the JVM has
     * deflated the monitor the hash inflated and its header holds the JVM's hash plainly: told to
     * deflate idle monitors every 100 ms, the JVM does within the program's wait. JDK 25 keeps the
     * hash in place at once (the test above).
     */
    @Test
    void hashesGivenUnderAHeldMonitorOutliveItsDeflation() {
        List<String> command = List.of(Reprise.JAVA, "-XX:+UnlockDiagnosticVMOptions",
                "-XX:GuaranteedAsyncDeflationInterval=100", "-cp", Reprise.CORPUS_JAR.toString(),
                "corpus.single.LockedHashes", "1000");
        Run recorded = record(tmp.resolve("rec"), command);
        assertEquals(0, recorded.status(), recorded::toString);
        assertTrue(recorded.stdout().contains("locked by the JDK, then unlocked: same hash"), recorded::toString);
        assertFalse(recorded.stdout().contains("CHANGED"), recorded::toString);
        assertReplaysMatch(tmp.resolve("rec"), recorded, 2);
    }

    @Test
    void environmentIsReplayedElsewhereWithAnotherEnvironment() throws Exception {
        Run recorded = record(tmp.resolve("rec"), corpus("corpus.single.MachineFacts"));
        assertEquals(0, recorded.status(), recorded::toString);
        Path elsewhere = Files.createDirectory(tmp.resolve("elsewhere"));
        Run replayed = Reprise.reprise(java.util.List.of("replay", tmp.resolve("rec").toString()), null,
                Map.of("HOME", "/nonexistent-home", "REPRISE_TEST_EXTRA", "1"), elsewhere);
        assertEquals(recorded.stdout(), replayed.stdout(), replayed::toString);
        assertEquals(0, replayed.status());
    }

    /**
     * The default zone is computed when the program first asks, as in a plain run: from the zone
     * the program set itself, or from the system's, which a replay takes from the recording
     * wherever it runs. Before, recording computed it as it started: the property was set before
     * the program's first line, and a zone the program set was ignored.
     */
    @ParameterizedTest
    @ValueSource(strings = {"", "Asia/Tokyo"})
    void theDefaultZoneIsThePlainRunsAndReplaysElsewhere(String ownZone) {
        List<String> command = new java.util.ArrayList<>(corpus("corpus.single.TimeZones"));
        if (!ownZone.isEmpty()) {
            command.add(ownZone);
        }
        Map<String, String> saoPaulo = Map.of("TZ", "America/Sao_Paulo");
        Run plain = Reprise.exec(command, null, saoPaulo, null);
        String zone = ownZone.isEmpty() ? "America/Sao_Paulo" : ownZone;
        assertEquals("user.timezone before: null\ndefault zone: " + zone + ", " + zone + "\nuser.timezone after: " + zone
                + "\n", plain.stdout(), plain::toString);
        Run recorded = record(tmp.resolve("rec"), command, null, saoPaulo);
        assertEquals(plain.stdout(), recorded.stdout(), recorded::toString);
        Run replayed = Reprise.reprise(List.of("replay", tmp.resolve("rec").toString(), "--chaos", "1"), null,
                Map.of("TZ", "Asia/Kolkata"), null);
        assertEquals(recorded.stdout(), replayed.stdout(), replayed::toString);
        assertEquals(0, replayed.status(), replayed::toString);
    }

    /**
     * The JVM fixes its default charset and its console streams' encodings from the locale
     * before Reprise starts: a replay on a machine of another locale gets the recording's, and
     * writes the same bytes. Before, the replay under {@code LANG=C} encoded the first non-ASCII
     * line otherwise, and diverged.
     */
    @Test
    void outputIsEncodedAsRecordedUnderAnotherLocale() {
        Map<String, String> utf8 = Map.of("LANG", "C.UTF-8", "LC_ALL", "C.UTF-8");
        Run recorded = record(tmp.resolve("rec"), corpus("corpus.single.NonAsciiOutput"), null, utf8);
        assertEquals("default charset UTF-8\nh\u00e9llo \u2713 \u65e5\u672c\n", recorded.stdout(), recorded::toString);
        Run replayed = Reprise.reprise(List.of("replay", tmp.resolve("rec").toString(), "--chaos", "1"), null,
                Map.of("LANG", "C", "LC_ALL", "C"), null);
        assertEquals(0, replayed.status(), replayed::toString);
        assertEquals(recorded.stdout(), replayed.stdout(), replayed::toString);
        assertEquals(recorded.programStderr(), replayed.programStderr(), replayed::toString);
    }

    @Test
    void stdinIsReplayedWithoutInput() {
        byte[] input = "hello\nworld\nthird line\n".getBytes(StandardCharsets.UTF_8);
        Run recorded = record(tmp.resolve("rec"), corpus("corpus.single.Stdin"), input, Map.of());
        assertTrue(recorded.stdout().startsWith("1: olleh\n2: dlrow\n3: enil driht\nlines 3"), recorded::toString);
        assertReplaysMatch(tmp.resolve("rec"), recorded, 2);
    }

    /**
     * A status of 128 or more from the program's own exit (a tool's {@code exit(-1)} is 255) is
     * not taken for a signal's: the recording completed, and says nothing of a signal.
     */
    @ParameterizedTest
    @CsvSource({"7, 7", "-1, 255", "130, 130"})
    void systemExitStatusIsReplayed(int argument, int status) {
        Run recorded = record(tmp.resolve("rec"), corpus("corpus.single.Exits", "exit", Integer.toString(argument)));
        assertEquals(status, recorded.status(), recorded::toString);
        assertFalse(recorded.stderr().contains("reprise:"), recorded::toString);
        assertReplaysMatch(tmp.resolve("rec"), recorded, 2);
    }

    @Test
    void deathByUncaughtExceptionIsReplayed() {
        Run recorded = record(tmp.resolve("rec"), corpus("corpus.single.Exits", "throw"));
        assertEquals(1, recorded.status(), recorded::toString);
        assertTrue(recorded.stderr().contains("IllegalStateException: boom at"), recorded::toString);
        assertReplaysMatch(tmp.resolve("rec"), recorded, 2);
    }

    @Test
    void shutdownHookOutputIsReplayed() {
        Run recorded = record(tmp.resolve("rec"), corpus("corpus.single.Exits", "hook"));
        assertTrue(recorded.stdout().contains("hook at"), recorded::toString);
        assertReplaysMatch(tmp.resolve("rec"), recorded, 2);
    }

    /**
     * The JVM's finalizer and a cleaner's thread, neither of them recorded, run the program's code
     * (its maps, a monitor) while main runs alone: main's output is the plain run's, and replays
     * match it. A plain run says the finalizers and cleaning actions do run within the program.
     */
    @Test
    void finalizersBesideMainAloneDoNotDisturbItsReplay() {
        Run plain = Reprise.exec(corpus("corpus.single.Finalizers", "report"), null, Map.of(), null);
        assertTrue(plain.stdout().endsWith("finalizers ran true, cleaners ran true\n"), plain::toString);
        Run recorded = record(tmp.resolve("rec"), corpus("corpus.single.Finalizers"));
        assertEquals(0, recorded.status(), recorded::toString);
        assertEquals(plain.stdout().lines().findFirst().orElseThrow() + "\n", recorded.stdout(), recorded::toString);
        assertReplaysMatch(tmp.resolve("rec"), recorded, 3);
    }

    /**
     * The bundled demo ({@code demo/run}): what it prints and its exit status differ from run to
     * run; replays, with the file it read deleted, print and exit as the recording did.
     */
    @Test
    void demoReplaysWithItsInputFileGone() throws Exception {
        Path input = Files.writeString(tmp.resolve("input.txt"), "secret " + System.nanoTime() + "\n");
        Run recorded = record(tmp.resolve("rec"), corpus("demo.Demo", input.toString()));
        assertTrue(recorded.stdout().contains("\nfile says      secret "), recorded::toString);
        Files.delete(input);
        assertReplaysMatch(tmp.resolve("rec"), recorded, 2);
    }

    @Test
    void executableJarIsRecordedAndReplayed() throws Exception {
        Path jar = tmp.resolve("app.jar");
        java.util.jar.Manifest mf = new java.util.jar.Manifest();
        mf.getMainAttributes().put(java.util.jar.Attributes.Name.MANIFEST_VERSION, "1.0");
        mf.getMainAttributes().put(java.util.jar.Attributes.Name.MAIN_CLASS, "corpus.single.Clocks");
        mf.getMainAttributes().put(java.util.jar.Attributes.Name.CLASS_PATH, Reprise.CORPUS_JAR.toUri().toString());
        try (var out = new java.util.jar.JarOutputStream(Files.newOutputStream(jar), mf)) {
            // the manifest alone: classes come from its Class-Path
        }
        Run recorded = record(tmp.resolve("rec"), java.util.List.of(Reprise.JAVA, "-jar", jar.toString()));
        assertEquals(0, recorded.status(), recorded::toString);
        assertTrue(recorded.stdout().contains("currentTimeMillis"), recorded::toString);
        assertReplaysMatch(tmp.resolve("rec"), recorded, 2);
    }
}
