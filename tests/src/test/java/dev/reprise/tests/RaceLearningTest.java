package dev.reprise.tests;

import static dev.reprise.tests.Reprise.corpus;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A program racing on a plain field that no option names ({@code corpus.races.Tickets}): its first
 * recording finds the field and says so, and a replay of it that diverges names the field and the
 * command that records it ordered; the next recording of the program orders the field by itself,
 * and replays identically under chaos.
 */
class RaceLearningTest {
    private static final String FIELD = "corpus.races.Tickets.next";

    @TempDir
    Path tmp;

    /** A cache of this test's own, so that the program's first recording here is its first. */
    private Map<String, String> env() {
        return Map.of("REPRISE_CACHE_DIR", tmp.resolve("cache").toString());
    }

    private Run record(Path dir) {
        List<String> args = new ArrayList<>(List.of("record", "-o", dir.toString(), "--"));
        args.addAll(corpus("corpus.races.Tickets"));
        return Reprise.reprise(args, null, env(), null);
    }

    private Run replay(Path dir, int seed) {
        return Reprise.reprise(List.of("replay", dir.toString(), "--chaos", Integer.toString(seed)), null, env(), null);
    }

    @Test
    void racedFieldIsNamedThenLearned() {
        Path first = tmp.resolve("first");
        Run recorded = record(first);
        assertEquals(0, recorded.status(), recorded::toString);
        assertTrue(recorded.stderr().contains("reprise: the program raced on plain fields " + FIELD + ", which this recording"
                + " does not order"), recorded::toString);
        assertTrue(recorded.stderr().contains("The next recording of this program orders them"), recorded::toString);
        for (int seed = 1; seed <= 3; seed++) {
            Run replayed = replay(first, seed);
            if (replayed.status() == 3) {
                assertTrue(recorded.stdout().startsWith(replayed.stdout()), replayed::toString);
                assertTrue(replayed.stderr().contains("the recorded run raced on field next of class corpus.races.Tickets"),
                        replayed::toString);
                assertTrue(replayed.stderr().contains("reprise record --order-field " + FIELD + " -o NEW_DIR -- "
                        + String.join(" ", corpus("corpus.races.Tickets"))), replayed::toString);
            } else {
                assertEquals(recorded.stdout(), replayed.stdout(), replayed::toString);
                assertEquals(recorded.status(), replayed.status(), replayed::toString);
            }
        }

        Path second = tmp.resolve("second");
        Run learned = record(second);
        assertEquals(0, learned.status(), learned::toString);
        assertTrue(learned.stderr().contains("reprise: ordering the plain fields earlier recordings of this program raced on: "
                + FIELD), learned::toString);
        assertTrue(Reprise.read(second.resolve("manifest.json")).contains("\"corpus/races/Tickets.next\""));
        for (int seed = 1; seed <= 3; seed++) {
            Run replayed = replay(second, seed);
            assertEquals(learned.stdout(), replayed.stdout(), replayed::toString);
            assertEquals(learned.programStderr(), replayed.programStderr(), replayed::toString);
            assertEquals(learned.status(), replayed.status(), replayed::toString);
        }
    }
}
