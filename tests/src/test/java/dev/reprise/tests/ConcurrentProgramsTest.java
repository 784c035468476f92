package dev.reprise.tests;

import static dev.reprise.tests.Reprise.corpus;
import static dev.reprise.tests.Reprise.replay;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The java.util.concurrent programs of corpus.juc that need more than the standard protocol
 * (locks, synchronizers, atomics, collections, pools, futures, Caffeine and maps shared after
 * main filled them alone carry {@code corpus.Expect}, for {@code CorpusTest}): virtual threads,
 * their striped counters and their ends on JDK 21+, read-mostly fields (three recordings under
 * RTO), relaxed events checked at their sites, and a warning about a thread started where the
 * JDK's calls are unordered. Each recording is replayed with chaos seeds, every replay
 * byte-identical to the recording in stdout and exit status.
 */
class ConcurrentProgramsTest {
    /** Four, as ThreadsTest: this class is CI's longest, and two JDKs' runs must stay under 25 minutes. */
    private static final int CHAOS_REPLAYS = 4;

    @TempDir
    Path tmp;

    @ParameterizedTest(name = "virtual threads under {0}")
    @CsvSource({"rto", "to"})
    void virtualThreadsAreReplayed(String order) {
        assumeVirtualThreads();
        String out = recordAndReplay("corpus.juc.VirtualThreads", order).stdout();
        assertTrue(out.contains("all on virtual threads true, terminated true"), out);
    }

    /**
     * On JDK 25 ThreadLocalRandom's probe, which picks the cells of a LongAdder and of a
     * ConcurrentHashMap's counter, is the carrier thread's, and the scheduler picks the carrier:
     * a replay took other cells, in other numbers of actions, and diverged.
     */
    @ParameterizedTest(name = "virtual threads' striped counters under {0}")
    @CsvSource({"rto", "to"})
    void virtualThreadsStripedCountersAreReplayed(String order) {
        assumeVirtualThreads();
        String out = recordAndReplay("corpus.juc.VirtualThreadCounters", order).stdout();
        assertTrue(out.startsWith("sum 16000, map {0=3200, 1=3200, 2=3200, 3=3200, 4=3200}, draws "), out);
    }

    /**
     * A virtual thread that prints blocks in a file operation, and its carrier compensates the
     * scheduler through the JDK's back door into {@code ForkJoinPool}, in actions whose number
     * depends on the carriers, which are not recorded: ordered, most chaos replays diverged at a
     * virtual thread's end.
     */
    @ParameterizedTest(name = "printing virtual threads under {0}")
    @CsvSource({"rto", "to"})
    void printingVirtualThreadsAreReplayed(String order) {
        assumeVirtualThreads();
        String out = recordAndReplay("corpus.juc.VirtualThreadsPrinting", order).stdout();
        assertTrue(out.contains("thread 5 line 4\n") && out.endsWith("all joined\n"), out);
    }

    /**
     * A virtual thread ends without {@code Thread.exit}; its stream must still end with the
     * thread, past the relaxed run of its last updates, or replay holds it short of its end and
     * the join waits forever.
     */
    @ParameterizedTest(name = "virtual threads' ends under {0}")
    @CsvSource({"rto", "to"})
    void virtualThreadsEndOnReplay(String order) {
        assumeVirtualThreads();
        String out = recordAndReplay("corpus.juc.VirtualThreadEnds", order).stdout();
        assertEquals("counts 100 200 300 400, any alive after join false\n", out);
    }

    /**
     * Reads of a slot their thread read since its last write take no lock when recorded under RTO;
     * a write waits for them and orders after the readers' counts. Taking those counts after the
     * write had become the program's last ordered event, which a reader's first use of another
     * slot then ordered after, made replay wait in a cycle. Recorded three times, each replayed
     * three times.
     */
    @RepeatedTest(value = 3, name = "read-mostly fields, recording {currentRepetition}")
    void readsWithoutTheSlotsLockAreReplayed() {
        String out = recordAndReplay("corpus.juc.ReadMostly", "rto", 3).stdout();
        assertTrue(out.endsWith("last version 400, work true\n"), out);
    }

    /**
     * Under {@code --log-relaxed} replay checks every synchronization event's operation and site,
     * relaxed ones included, not only the count of each run of relaxed events: a thread that took
     * another path between two ordered events, with as many actions, would be caught here.
     */
    @ParameterizedTest(name = "{0} event by event")
    @CsvSource({"corpus.juc.Locks", "corpus.juc.ConcurrentCollections", "corpus.juc.Pools", "corpus.juc.CaffeineCache"})
    void everyRelaxedEventIsReplayedAtItsSite(String program) {
        recordAndReplay(program, "rto", 3, "--log-relaxed");
    }

    /**
     * While main runs alone, ConcurrentHashMap's methods run unbracketed; a thread started from a
     * key's hashCode, inside one, ends that phase mid-call, and the recording says so.
     */
    @Test
    void aThreadStartedInsideTheMapsUnorderedCodeIsWarnedAbout() {
        Run recorded = recordAndReplay("corpus.juc.ThreadFromHashCode", "rto", 2);
        assertEquals("worker ran\nsize 1\n", recorded.stdout());
        assertTrue(recorded.stderr().contains("reprise: warning: main started its first thread inside "
                + "java.util.concurrent.ConcurrentHashMap.putVal"), recorded::toString);
    }

    private static void assumeVirtualThreads() {
        assumeTrue(Runtime.version().feature() >= 21, "virtual threads need JDK 21 or later");
    }

    private Run recordAndReplay(String program, String order) {
        return recordAndReplay(program, order, CHAOS_REPLAYS);
    }

    private Run recordAndReplay(String program, String order, int replays, String... recordOptions) {
        List<String> args = new ArrayList<>(List.of("record", "--order", order));
        args.addAll(List.of(recordOptions));
        args.addAll(List.of("-o", tmp.resolve("rec").toString(), "--"));
        args.addAll(corpus(program));
        Run recorded = Reprise.reprise(args, null, Map.of(), null);
        assertEquals(0, recorded.status(), recorded::toString);
        for (int seed = 1; seed <= Reprise.chaosReplays(replays); seed++) {
            Run replayed = replay(tmp.resolve("rec"), "--chaos", Integer.toString(seed));
            int s = seed;
            assertEquals(recorded.stdout(), replayed.stdout(), () -> "stdout differs, chaos seed " + s + "\n" + replayed);
            assertEquals(recorded.status(), replayed.status(), () -> "status differs, chaos seed " + s + "\n" + replayed);
        }
        return recorded;
    }
}
