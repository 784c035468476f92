package dev.reprise.tests;

import static dev.reprise.tests.Reprise.corpus;
import static dev.reprise.tests.Reprise.replay;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * java.util.concurrent programs whose output is their interleaving (locks and conditions,
 * latches, semaphores, tryLock, atomics and compare-and-set loops): recorded under each ordering,
 * replayed ten times with chaos, byte-identical.
 */
class ConcurrencyUtilitiesTest {
    @TempDir
    Path tmp;

    @ParameterizedTest(name = "{0} under {1}")
    @CsvSource({
        "corpus.juc.Locks, rto", "corpus.juc.Locks, to",
        "corpus.juc.Atomics, rto", "corpus.juc.Atomics, to",
    })
    void interleavingIsReplayed(String program, String order) {
        List<String> args = new ArrayList<>(List.of("record", "--order", order, "-o", tmp.resolve("rec").toString(), "--"));
        args.addAll(corpus(program));
        Run recorded = Reprise.reprise(args, null, Map.of(), null);
        assertEquals(0, recorded.status(), recorded::toString);
        for (int seed = 1; seed <= 10; seed++) {
            Run replayed = replay(tmp.resolve("rec"), "--chaos", Integer.toString(seed));
            int s = seed;
            assertEquals(recorded.stdout(), replayed.stdout(), () -> "stdout differs, chaos seed " + s + "\n" + replayed);
            assertEquals(recorded.status(), replayed.status(), () -> "status differs, seed " + s + "\n" + replayed);
        }
    }
}
