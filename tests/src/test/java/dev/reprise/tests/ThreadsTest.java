package dev.reprise.tests;

import static dev.reprise.tests.Reprise.corpus;
import static dev.reprise.tests.Reprise.record;
import static dev.reprise.tests.Reprise.replay;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Multi-threaded programs whose output is their interleaving: recorded under each ordering, then
 * replayed four times with different chaos seeds, always byte-identical. These check more than
 * that; the programs that need no more carry {@code corpus.Expect} and run in {@link CorpusTest}.
 */
class ThreadsTest {
    private static final int CHAOS_REPLAYS = 4;

    @TempDir
    Path tmp;

    private static void assertChaosReplaysMatch(Path dir, Run recorded) {
        Reprise.assertChaosReplaysMatch(dir, recorded, CHAOS_REPLAYS);
    }

    /**
     * A synchronization action that throws (a volatile read through null, an array VarHandle read
     * past the end) is caught by the program's own catch right around it, inside a synchronized
     * block or method, and the monitor is free again: each thread counts every exception where it
     * expected it, as it does without Reprise.
     */
    @ParameterizedTest(name = "under {0}")
    @CsvSource({"rto", "to"})
    void throwingActionsAreCaughtWhereTheProgramCatchesThem(String order) {
        Run recorded = record(tmp.resolve("rec"), order, corpus("corpus.threads.ThrowingActions", "3", "200"));
        assertEquals(0, recorded.status(), recorded::toString);
        for (int t = 0; t < 3; t++) {
            assertTrue(recorded.stdout().contains("thread " + t + " caught 67 null reads, 66 reads past the end"),
                    recorded::toString);
        }
        assertTrue(recorded.stdout().startsWith("600 turns: "), recorded::toString);
        assertChaosReplaysMatch(tmp.resolve("rec"), recorded);
    }

    /**
     * A program that lists its JVM's threads (the root group, every thread's stack, the management
     * bean's ids and dump) sees the threads a plain run has: none of Reprise's, which a recording
     * and its replays have different ones of.
     */
    @ParameterizedTest(name = "under {0}")
    @CsvSource({"rto", "to"})
    void threadListsShowNoneOfReprisesThreads(String order) {
        Run plain = Reprise.exec(corpus("corpus.threads.ThreadLists"), null, Map.of(), null);
        assertEquals(0, plain.status(), plain::toString);
        assertTrue(plain.stdout().contains("dumped (9): "), plain::toString);
        Run recorded = record(tmp.resolve("rec"), order, corpus("corpus.threads.ThreadLists"));
        assertEquals(plain.stdout(), recorded.stdout(), recorded::toString);
        assertChaosReplaysMatch(tmp.resolve("rec"), recorded);
    }

    /**
     * From JDK 24 on, the JDK warns once of a first use: of a {@code sun.misc.Unsafe} memory
     * access, naming its caller, and of a module's restricted methods ({@code System.loadLibrary}
     * and the like), naming the method. Four threads race to be first, each through another
     * method, so the warning's words and the thread that prints it are the race's outcome.
     * Recorded three times: every replay prints the recording's warning and output.
     */
    @ParameterizedTest(name = "{0} under {2}")
    @CsvSource({
            "corpus.threads.UnsafeFirstUse, WARNING: A terminally deprecated method in sun.misc.Unsafe has been called, rto",
            "corpus.threads.UnsafeFirstUse, WARNING: A terminally deprecated method in sun.misc.Unsafe has been called, to",
            "corpus.threads.RestrictedFirstUse, WARNING: Restricted methods will be blocked in a future release, rto",
            "corpus.threads.RestrictedFirstUse, WARNING: Restricted methods will be blocked in a future release, to"})
    void firstUseWarningIsReplayedFromItsThread(String program, String warning, String order) {
        assumeTrue(Runtime.version().feature() >= 24, "the JDK warns of these first uses from JDK 24");
        for (int i = 0; i < 3; i++) {
            Path dir = tmp.resolve("rec" + i);
            Run recorded = record(dir, order, corpus(program));
            assertEquals(0, recorded.status(), recorded::toString);
            assertTrue(recorded.programStderr().contains(warning), recorded::toString);
            assertChaosReplaysMatch(dir, recorded);
        }
    }

    /**
     * Reentrant synchronized methods on each thread's own object, most of them relaxed and only
     * counted, with now and then a contended shared monitor: the sums are the plain run's, and
     * every replay prints them.
     */
    @ParameterizedTest(name = "under {0}")
    @CsvSource({"rto", "to"})
    void mostlyPrivateMonitorsAreReplayed(String order) {
        List<String> program = corpus("corpus.threads.SyncHeavy", "4", "20000");
        Run plain = Reprise.exec(program, null, Map.of(), null);
        Run recorded = record(tmp.resolve("rec"), order, program);
        assertEquals(0, recorded.status(), recorded::toString);
        assertEquals(plain.stdout(), recorded.stdout(), recorded::toString);
        assertChaosReplaysMatch(tmp.resolve("rec"), recorded);
    }

    /**
     * The exit cuts the recording while daemon threads contend for a monitor and another spins:
     * in about one recording in five (TO), a contender has drawn its turn but not yet logged the
     * event, and main's last events come after it. Several recordings, each replayed twice.
     */
    @ParameterizedTest(name = "under {0}")
    @CsvSource({"rto", "to"})
    void exitWhileThreadsContendIsReplayed(String order) {
        for (int i = 0; i < Reprise.chaosReplays(4); i++) {
            Path dir = tmp.resolve("rec" + i);
            Run recorded = record(dir, order, corpus("corpus.threads.ExitWhileContended", "2", "1", "5"));
            assertEquals(0, recorded.status(), recorded::toString);
            for (String[] options : List.of(new String[0], new String[] {"--chaos", Integer.toString(i + 1)})) {
                Run replayed = replay(dir, options);
                assertEquals(recorded.stdout(), replayed.stdout(), replayed::toString);
                assertEquals(0, replayed.status(), replayed::toString);
            }
        }
    }

    /**
     * The exit cuts off an application class's initializer while it runs on another thread: its
     * stream ends without the initializer's end, and replay waits there for the exit, as for a
     * thread the exit cut off, instead of reporting a divergence. Main exits after printing, whose
     * synchronization is relaxed and only counted: its exit is an event, so the count is written
     * and main's replay reaches the exit instead of waiting for it.
     */
    @ParameterizedTest(name = "under {0}")
    @CsvSource({"rto", "to"})
    void exitWhileAnInitializerRunsIsReplayed(String order) {
        Run recorded = record(tmp.resolve("rec"), order, corpus("corpus.threads.ExitDuringInitializer"));
        assertEquals(7, recorded.status(), recorded::toString);
        assertTrue(recorded.stdout().startsWith("the initializer had run "), recorded::toString);
        assertChaosReplaysMatch(tmp.resolve("rec"), recorded);
    }

    /**
     * An application initializer whose synchronization is all relaxed counts it, as a thread
     * does: its stream keeps only the count and the end, and its replay takes the count.
     */
    @Test
    void initializerWithOnlyCountedEventsIsReplayed() {
        Run recorded = record(tmp.resolve("rec"), "rto", corpus("corpus.threads.CountedInitializer"));
        assertEquals(0, recorded.status(), recorded::toString);
        assertTrue(recorded.stdout().endsWith("the initializer summed 4950\n"), recorded::toString);
        Run events = Reprise.reprise(List.of("inspect", "--events", "init-corpus.threads.CountedInitializer$Reader",
                tmp.resolve("rec").toString()), null, Map.of(), null);
        assertEquals(0, events.status(), events::toString);
        List<String> ops = events.stdout().lines().map(l -> l.trim().split("\\s+")).filter(f -> f.length > 1)
                .map(f -> f[1]).toList();
        assertEquals(List.of("class.init.index", "sync.relaxed.run", "class.init.end"), ops, events::toString);
        assertChaosReplaysMatch(tmp.resolve("rec"), recorded);
    }

    /** A JDK initializer's thread start is an event of the initializer's own stream, replayed there. */
    @Test
    void threadStartedByJdkInitializerIsReplayed() {
        Run recorded = record(tmp.resolve("rec"), "rto", corpus("corpus.threads.InitializerStartsThread"));
        assertEquals(0, recorded.status(), recorded::toString);
        assertChaosReplaysMatch(tmp.resolve("rec"), recorded);
    }

    @Test
    void lifecycleEndsByExitFromAnotherThread() {
        Run recorded = record(tmp.resolve("rec"), "rto", corpus("corpus.threads.Lifecycle"));
        assertEquals(42, recorded.status(), recorded::toString);
        assertTrue(recorded.stdout().contains("sleeper interrupted, flag now false"), recorded::toString);
        assertTrue(recorded.stderr().contains("IllegalStateException: failure in thread"), recorded::toString);
        assertTrue(!recorded.stdout().contains("not reached"), recorded::toString);
    }

    /**
     * Until the main thread starts another, nothing interleaves with it: a single-threaded
     * program's monitors are counted, none written, under RTO (TO writes each one's turn), and
     * the recording replays.
     */
    @Test
    void singleThreadedSynchronizationIsOnlyCounted() {
        Run recorded = record(tmp.resolve("rec"), "rto", corpus("corpus.single.IdentityHashedLocks"));
        assertEquals(0, recorded.status(), recorded::toString);
        Run inspect = Reprise.reprise(List.of("inspect", tmp.resolve("rec").toString()), null, Map.of(), null);
        assertTrue(inspect.stdout().contains("events counted, not written"), inspect::toString);
        assertTrue(!inspect.stdout().contains("sync.monitor ") && !inspect.stdout().contains("sync.action "), inspect::toString);
        assertChaosReplaysMatch(tmp.resolve("rec"), recorded);
        record(tmp.resolve("to"), "to", corpus("corpus.single.IdentityHashedLocks"));
        Run inspectTo = Reprise.reprise(List.of("inspect", tmp.resolve("to").toString()), null, Map.of(), null);
        assertTrue(inspectTo.stdout().contains("sync.monitor "), inspectTo::toString);
    }

    @Test
    void relaxedAcquisitionsAreCountedApart() {
        Run recorded = record(tmp.resolve("rec"), "rto", corpus("corpus.threads.LockOrder", "4", "100"));
        assertEquals(0, recorded.status(), recorded::toString);
        Run inspect = Reprise.reprise(List.of("inspect", tmp.resolve("rec").toString()), null, Map.of(), null);
        java.util.regex.Matcher counted = java.util.regex.Pattern
                .compile("events counted, not written \\(sync.relaxed.run\\): (\\d+)")
                .matcher(inspect.stdout());
        assertTrue(counted.find(), inspect::toString);
        // A worker mostly takes the lock again right after itself: those acquisitions are relaxed.
        assertTrue(Long.parseLong(counted.group(1)) > 0, inspect::toString);
        assertTrue(inspect.stdout().contains("sync.monitor "), inspect::toString);
        Run to = record(tmp.resolve("to"), "to", corpus("corpus.threads.LockOrder", "4", "100"));
        Run inspectTo = Reprise.reprise(List.of("inspect", tmp.resolve("to").toString()), null, Map.of(), null);
        assertTrue(!inspectTo.stdout().contains(".relaxed") && !inspectTo.stdout().contains("counted, not written"),
                inspectTo::toString);
        assertEquals(0, to.status());
    }

    @Test
    void manyMoreThreadsThanCores() {
        Run recorded = record(tmp.resolve("rec"), "rto", corpus("corpus.threads.ManyThreads", "256"));
        assertTrue(recorded.stdout().startsWith("threads 256"), recorded::toString);
        for (int seed = 1; seed <= Reprise.chaosReplays(3); seed++) {
            Run replayed = replay(tmp.resolve("rec"), "--chaos", Integer.toString(seed));
            assertEquals(recorded.stdout(), replayed.stdout(), replayed::toString);
        }
    }

    /**
     * Two threads hash the same new objects at once into sets of their own: every object keeps
     * the one hash that landed first, so each set finds all it holds, as in a plain run. (An
     * object both threads hashed in the same moment once kept the loser's hash for later
     * requests: a few to hundreds went missing in every recording.) The race is not ordered, so
     * each of three recordings races anew; their replays print the same.
     */
    @Test
    void objectHashedByTwoThreadsAtOnceHasOneHash() {
        for (int r = 0; r < 3; r++) {
            Path dir = tmp.resolve("rec" + r);
            Run recorded = record(dir, "rto", corpus("corpus.threads.SharedFirstHash", "200000"));
            assertEquals("objects 200000, missing from the first set 0, from the second 0\n", recorded.stdout(), recorded::toString);
            Run replayed = replay(dir);
            assertEquals(recorded.stdout(), replayed.stdout(), replayed::toString);
            assertEquals(0, replayed.status(), replayed::toString);
        }
    }

    /**
     * A program with a data race may diverge on replay; then it says so, and it has printed only
     * what the recording printed up to there: never the count it reached itself.
     */
    @Test
    void racyProgramNeverReplaysSilentlyWrong() {
        Run recorded = record(tmp.resolve("rec"), "rto", corpus("corpus.threads.Racy"));
        for (int seed = 1; seed <= Reprise.chaosReplays(8); seed++) {
            Run replayed = replay(tmp.resolve("rec"), "--chaos", Integer.toString(seed));
            if (replayed.status() == 3) {
                assertTrue(recorded.stdout().startsWith(replayed.stdout()), replayed::toString);
                assertTrue(replayed.stderr().contains("reprise: replay diverged"), replayed::toString);
            } else {
                assertEquals(recorded.stdout(), replayed.stdout(), replayed::toString);
                assertEquals(recorded.status(), replayed.status(), replayed::toString);
            }
        }
    }

    /**
     * Racy programs recorded with their racy field named by {@code --order-field} under each
     * ordering: each access is then ordered like a volatile one, and every replay reproduces the
     * recorded lost updates exactly. {@code RacyCache} tests its field and reads it again, which
     * Reprise reads once (RepeatedReadsTest). {@code RacyCopies} copies the field's object with
     * {@code clone()}, which reads it too. The manifest keeps the field, so replay needs no option.
     */
    @ParameterizedTest(name = "{1} under {2}")
    @CsvSource({"corpus.threads.Racy, corpus.threads.Racy.counter, rto, counter",
        "corpus.threads.Racy, corpus.threads.Racy.counter, to, counter",
        "corpus.threads.RacyCache, corpus.threads.RacyCache.cache, rto, sums",
        "corpus.threads.RacyCache, corpus.threads.RacyCache.cache, to, sums",
        "corpus.threads.RacyCopies, corpus.threads.RacyCopies$Page.hint, rto, hints",
        "corpus.threads.RacyCopies, corpus.threads.RacyCopies$Page.hint, to, hints"})
    void racyFieldNamedByOrderFieldReplaysExactly(String program, String field, String order, String prints) {
        Path dir = tmp.resolve("rec");
        String declarer = field.substring(0, field.lastIndexOf('.'));
        List<String> args = new ArrayList<>(List.of("record", "--order", order, "--order-field", field,
                "-o", dir.toString(), "--"));
        args.addAll(corpus(program));
        Run recorded = Reprise.reprise(args, null, Map.of(), null);
        assertEquals(0, recorded.status(), recorded::toString);
        assertTrue(recorded.stdout().startsWith(prints + " "), recorded::toString);
        String inManifest = declarer.replace('.', '/') + field.substring(declarer.length());
        assertTrue(Reprise.read(dir.resolve("manifest.json")).contains("\"" + inManifest + "\""));
        assertChaosReplaysMatch(dir, recorded);
    }
}
