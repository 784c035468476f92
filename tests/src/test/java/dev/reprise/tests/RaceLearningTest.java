package dev.reprise.tests;

import static dev.reprise.tests.Reprise.corpus;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.io.TempDir;

/**
 * A program racing on a plain field or on array elements that no option names: its first
 * recording finds them and says so, and a replay of it that diverges names them and the command
 * that records them ordered; the next recording of the program orders them by itself, and replays
 * identically under chaos. {@code corpus.races.Tickets} races on a field; {@code corpus.races.Slots}
 * on the elements of an array one class fills and another reads; {@code corpus.races.Evictions} on
 * the field of one object among many; {@code corpus.races.LazyCaches} on a field the watch
 * sees, and on another cache of the same class that it cannot, which goes along;
 * {@code corpus.races.SharedKeys} on which thread hashes shared objects first. A lock-free class's
 * race on the slots of its arrays ({@code corpus.races.StripedCells}), and a cache's on the slots
 * of a table it publishes through a volatile field ({@code corpus.races.PublishedSlots}), need no
 * learning.
 */
class RaceLearningTest {
    @TempDir
    Path tmp;

    /** A cache of this test's own, so that the program's first recording here is its first. */
    private Map<String, String> env() {
        return Map.of("REPRISE_CACHE_DIR", tmp.resolve("cache").toString());
    }

    private Run record(Path dir, String program) {
        return record(dir, "rto", program);
    }

    private Run record(Path dir, String order, String program) {
        List<String> args = new ArrayList<>(List.of("record", "--order", order, "-o", dir.toString(), "--"));
        args.addAll(corpus(program));
        return Reprise.reprise(args, null, env(), null);
    }

    private Run replay(Path dir, int seed) {
        return Reprise.reprise(List.of("replay", dir.toString(), "--chaos", Integer.toString(seed)), null, env(), null);
    }

    /**
     * A recursion that reads a static field at every level until its stack overflows, caught five
     * times: in a recording that learns races, the overflow often comes in the watch's work, which
     * its replays do not do. A watch holding a field's lock when the stack ran out left it held,
     * and the next overflow's recording waited for itself forever; once that was mended, replays,
     * with their larger stacks, recursed on past where the recording had overflowed.
     */
    @ParameterizedTest(name = "{0}")
    @CsvSource({"rto", "to"})
    void anOverflowInTheWatchReplays(String order) {
        Path rec = tmp.resolve("rec");
        Run recorded = record(rec, order, "corpus.single.CaughtOverflow");
        assertEquals(0, recorded.status(), recorded::toString);
        assertTrue(recorded.stdout().startsWith("caught 5 overflows\n"), recorded::toString);
        for (int seed = 1; seed <= Reprise.chaosReplays(2); seed++) {
            Run replayed = replay(rec, seed);
            assertEquals(recorded.stdout(), replayed.stdout(), replayed::toString);
            assertEquals(recorded.status(), replayed.status(), replayed::toString);
        }
    }

    /**
     * A field that only code holding its object's monitor touches is no race, also when a
     * volatile write to the same object comes between two holders: the first recording names
     * nothing, and its replays match.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"rto", "to"})
    void aFieldItsMonitorGuardsIsNoRace(String order) {
        String program = "corpus.races.GuardedBesideVolatile";
        Path first = tmp.resolve("first");
        Run recorded = record(first, order, program);
        assertEquals(0, recorded.status(), recorded::toString);
        assertTrue(recorded.stdout().startsWith("200 promises completed"), recorded::toString);
        assertFalse(recorded.stderr().contains("raced on"), recorded::toString);
        for (int seed = 1; seed <= Reprise.chaosReplays(3); seed++) {
            Run replayed = replay(first, seed);
            assertEquals(recorded.stdout(), replayed.stdout(), replayed::toString);
            assertEquals(recorded.status(), replayed.status(), replayed::toString);
        }
    }

    /**
     * A TO recording learns as an RTO one does, its turns standing for RTO's edges: the first
     * names the race, and the next orders it and replays.
     */
    @Test
    void totalOrderRecordingsLearnToo() {
        String program = "corpus.races.Tickets";
        Run recorded = record(tmp.resolve("first"), "to", program);
        assertEquals(0, recorded.status(), recorded::toString);
        assertTrue(recorded.stderr().contains("reprise: the program raced on plain fields or array elements"
                + " corpus.races.Tickets.next, which this recording does not order"), recorded::toString);
        Path second = tmp.resolve("second");
        Run learned = record(second, "to", program);
        assertTrue(learned.stderr().contains("reprise: ordering the plain fields and array elements earlier recordings of this"
                + " program raced on: corpus.races.Tickets.next"), learned::toString);
        for (int seed = 1; seed <= Reprise.chaosReplays(3); seed++) {
            Run replayed = replay(second, seed);
            assertEquals(learned.stdout(), replayed.stdout(), replayed::toString);
            assertEquals(learned.status(), replayed.status(), replayed::toString);
        }
    }

    /**
     * A class's objects shared unordered: the race the watch meets on one of its caches (the
     * shapes' lazily computed hash) orders the class's other caches filled when first asked (the
     * outline, whose race the watch cannot see), and not a field only the constructor writes
     * (the id). With the hash alone ordered, the replays diverged.
     */
    @Test
    void aRaceOrdersTheCachesItsClassFills() {
        String program = "corpus.races.LazyCaches";
        Run recorded = record(tmp.resolve("first"), program);
        assertEquals(0, recorded.status(), recorded::toString);
        // The watch meets the outlines' race itself only when the reader catches up with the
        // drawer, as on a loaded machine: then both are named raced.
        assertTrue(recorded.stderr().contains("reprise: the program raced on plain fields or array elements"
                + " corpus.races.LazyCaches$Shape.hash, which this recording does not order, nor"
                + " corpus.races.LazyCaches$Shape.outline, which go along with them (caches their classes fill when first asked,"
                + " a shared collection's other fields): its replay may diverge.")
                || recorded.stderr().contains("reprise: the program raced on plain fields or array elements"
                + " corpus.races.LazyCaches$Shape.hash, corpus.races.LazyCaches$Shape.outline, which this recording does not order:"),
                recorded::toString);

        Path second = tmp.resolve("second");
        Run learned = record(second, program);
        assertEquals(0, learned.status(), learned::toString);
        String manifest = Reprise.read(second.resolve("manifest.json")).replaceAll("\\s+", " ");
        assertTrue(manifest.contains("\"corpus/races/LazyCaches$Shape.hash\", \"corpus/races/LazyCaches$Shape.outline\""), manifest);
        assertFalse(manifest.contains("LazyCaches$Shape.id"), manifest);
        for (int seed = 1; seed <= Reprise.chaosReplays(3); seed++) {
            Run replayed = replay(second, seed);
            assertEquals(learned.stdout(), replayed.stdout(), replayed::toString);
            assertEquals(learned.status(), replayed.status(), replayed::toString);
        }
    }

    /**
     * Classes that race on their arrays' slots by design, ordered in every recording, as the
     * JDK's concurrency code is, since a race that shows only under contention may never meet a
     * recording that learns: a lock-free class puts cells into an array's slots plainly under a
     * compare-and-set lock of its own and sums them reading the slots plainly, as
     * {@code Striped64} and its copies in libraries do; a cache publishes its table through a
     * volatile field and reads the slots that writers fill under its monitor without it, as
     * Spring's {@code ConcurrentReferenceHashMap} does. Recorded without looking for races, in a
     * cache of its own, so nothing learned orders them.
     */
    @ParameterizedTest(name = "{0} under {2}")
    @CsvSource({
            "corpus.races.StripedCells, 'total 60000, cells met ', rto",
            "corpus.races.StripedCells, 'total 60000, cells met ', to",
            "corpus.races.PublishedSlots, 'lookups 20000, hits ', rto",
            "corpus.races.PublishedSlots, 'lookups 20000, hits ', to"})
    void slotsRacedOnByDesignAreOrderedWithoutLearning(String program, String prefix, String order) {
        Path dir = tmp.resolve("rec");
        List<String> args = new ArrayList<>(List.of("record", "--order", order, "--no-learn-races", "-o", dir.toString(), "--"));
        args.addAll(corpus(program));
        Run recorded = Reprise.reprise(args, null, env(), null);
        assertEquals(0, recorded.status(), recorded::toString);
        assertTrue(recorded.stdout().startsWith(prefix), recorded::toString);
        for (int seed = 1; seed <= Reprise.chaosReplays(4); seed++) {
            Run replayed = replay(dir, seed);
            assertEquals(recorded.stdout(), replayed.stdout(), replayed::toString);
            assertEquals(recorded.status(), replayed.status(), replayed::toString);
        }
    }

    /**
     * {@code found}: what the first recording says it raced on, as {@code --order-field} takes it;
     * {@code described}: how a diverging replay names them; {@code manifest}: the entries of the
     * next recording's manifest; {@code option}: the first option of the command a replay advises.
     */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', quoteCharacter = '`', value = {
        "corpus.races.Tickets | corpus.races.Tickets.next | field next of class corpus.races.Tickets"
                + " | \"corpus/races/Tickets.next\" | --order-field corpus.races.Tickets.next",
        "corpus.races.Slots | corpus.races.Slots$Scanner[], corpus.races.Slots[]"
                + " | array elements accessed in class corpus.races.Slots$Scanner, array elements accessed in class corpus.races.Slots"
                + " | \"corpus/races/Slots$Scanner.[]\", \"corpus/races/Slots.[]\""
                + " | --order-field 'corpus.races.Slots$Scanner[]' --order-field 'corpus.races.Slots[]'",
        // The program's race on a JDK list, and nothing of the JDK's own lists (the logger tree's,
        // which the collector trims): those are not watched, and not ordered once the list is.
        // The list's array, which only the writer touches, goes along: the list's methods read both.
        "corpus.races.ListBesideLoggers | java.util.ArrayList.size | field size of class java.util.ArrayList"
                + " | \"java/util/ArrayList.elementData\", \"java/util/ArrayList.size\""
                + " | --order-field java.util.ArrayList.size --order-field java.util.ArrayList.elementData",
        // Plain reads of a long[] whose every write is a compare-and-set through a handle.
        "corpus.races.StripedCounters | corpus.races.StripedCounters[] | array elements accessed in class corpus.races.StripedCounters"
                + " | \"corpus/races/StripedCounters.[]\" | --order-field 'corpus.races.StripedCounters[]'",
        // Keys that main makes and threads hash first in their own maps: which hashes each first
        // is a race, and the next recording gives each its hash where main makes it.
        "corpus.races.SharedKeys | corpus.races.SharedKeys$Key#hash | identity hashes of the objects of class corpus.races.SharedKeys$Key"
                + " | \"corpus/races/SharedKeys$Key.#hash\" | --order-field 'corpus.races.SharedKeys$Key#hash'",
        // An eviction of one entry among tens of thousands, met by a reader walking them all.
        "corpus.races.Evictions | corpus.races.Evictions$Ref.page | field page of class corpus.races.Evictions$Ref"
                + " | \"corpus/races/Evictions$Ref.page\" | --order-field 'corpus.races.Evictions$Ref.page'"})
    void racesAreNamedThenLearned(String program, String found, String described, String manifest, String option) {
        Path first = tmp.resolve("first");
        Run recorded = record(first, program);
        assertEquals(0, recorded.status(), recorded::toString);
        assertTrue(recorded.stderr().contains("reprise: the program raced on plain fields or array elements " + found
                + ", which this recording does not order"), recorded::toString);
        assertTrue(recorded.stderr().contains("The next recording of this program orders them"), recorded::toString);
        for (int seed = 1; seed <= Reprise.chaosReplays(3); seed++) {
            Run replayed = replay(first, seed);
            if (replayed.status() == 3) {
                assertTrue(recorded.stdout().startsWith(replayed.stdout()), replayed::toString);
                assertTrue(replayed.stderr().contains("the recorded run raced on " + described), replayed::toString);
                assertTrue(replayed.stderr().contains("reprise record " + option + " -o NEW_DIR -- "
                        + String.join(" ", corpus(program))), replayed::toString);
            } else {
                assertEquals(recorded.stdout(), replayed.stdout(), replayed::toString);
                assertEquals(recorded.status(), replayed.status(), replayed::toString);
            }
        }

        Path second = tmp.resolve("second");
        Run learned = record(second, program);
        assertEquals(0, learned.status(), learned::toString);
        String ordering = learned.stderr().lines()
                .filter(l -> l.startsWith("reprise: ordering the plain fields and array elements earlier recordings of this"
                        + " program raced on: "))
                .findFirst().orElse("");
        for (String f : found.split(", ")) {
            assertTrue(ordering.contains(f), learned::toString);
        }
        assertTrue(Reprise.read(second.resolve("manifest.json")).replaceAll("\\s+", " ").contains(manifest), learned::toString);
        for (int seed = 1; seed <= Reprise.chaosReplays(3); seed++) {
            Run replayed = replay(second, seed);
            assertEquals(learned.stdout(), replayed.stdout(), replayed::toString);
            assertEquals(learned.programStderr(), replayed.programStderr(), replayed::toString);
            assertEquals(learned.status(), replayed.status(), replayed::toString);
        }
    }
}
