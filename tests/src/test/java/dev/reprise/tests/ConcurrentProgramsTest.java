package dev.reprise.tests;

import static dev.reprise.tests.Reprise.corpus;
import static dev.reprise.tests.Reprise.replay;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The java.util.concurrent programs of corpus.juc, whose output is their interleaving
 * (locks and conditions, synchronizers, atomics and VarHandles, concurrent collections, thread
 * pools, futures and parallel streams, the Caffeine cache): each recorded under each ordering and
 * replayed ten times with chaos seeds 1 to 10, every replay byte-identical to the recording in
 * stdout and exit status.
 */
class ConcurrentProgramsTest {
    /** Programs whose thread-pool replays still diverge on JDK 21+ under load: not yet done. */
    private static final Set<String> OPEN_ON_JDK21 = Set.of("corpus.juc.Pools", "corpus.juc.Futures");

    @TempDir
    Path tmp;

    @ParameterizedTest(name = "{0} under {1}")
    @CsvSource({
        "corpus.juc.Locks, rto", "corpus.juc.Locks, to",
        "corpus.juc.Synchronizers, rto", "corpus.juc.Synchronizers, to",
        "corpus.juc.AtomicsAndVarHandles, rto", "corpus.juc.AtomicsAndVarHandles, to",
        "corpus.juc.ConcurrentCollections, rto", "corpus.juc.ConcurrentCollections, to",
        "corpus.juc.Pools, rto", "corpus.juc.Pools, to",
        "corpus.juc.Futures, rto", "corpus.juc.Futures, to",
        "corpus.juc.CaffeineCache, rto", "corpus.juc.CaffeineCache, to",
    })
    void interleavingIsReplayed(String program, String order) {
        assumeFalse(Runtime.version().feature() >= 21 && OPEN_ON_JDK21.contains(program),
                "open (issue 4): on JDK 21+ a pool worker's condition wait and the submitter's signal can be"
                        + " replayed in another order under load, in AbstractQueuedSynchronizer");
        recordAndReplay(program, order);
    }

    private Run recordAndReplay(String program, String order) {
        List<String> args = new ArrayList<>(List.of("record", "--order", order, "-o", tmp.resolve("rec").toString(), "--"));
        args.addAll(corpus(program));
        Run recorded = Reprise.reprise(args, null, Map.of(), null);
        assertEquals(0, recorded.status(), recorded::toString);
        for (int seed = 1; seed <= 10; seed++) {
            Run replayed = replay(tmp.resolve("rec"), "--chaos", Integer.toString(seed));
            int s = seed;
            assertEquals(recorded.stdout(), replayed.stdout(), () -> "stdout differs, chaos seed " + s + "\n" + replayed);
            assertEquals(recorded.status(), replayed.status(), () -> "status differs, chaos seed " + s + "\n" + replayed);
        }
        return recorded;
    }
}
