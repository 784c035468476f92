package dev.reprise.tests;

import static dev.reprise.tests.Reprise.corpus;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** A mistyped command line gets a {@code reprise:} message and status 2; help is not an error. */
class UsageTest {
    @TempDir
    Path tmp;

    @Test
    void noSubcommand() {
        assertUsageError(reprise(), "a subcommand is required");
    }

    @Test
    void unknownSubcommand() {
        assertUsageError(reprise("rewind", "rec"), "unknown subcommand 'rewind'");
    }

    @Test
    void recordWithoutACommand() {
        assertUsageError(reprise("record", "-o", tmp.resolve("rec").toString()), "java");
        assertUsageError(reprise("record", "-o", tmp.resolve("rec").toString(), "--"), "java");
    }

    @Test
    void recordOfSomethingOtherThanJava() {
        assertUsageError(reprise("record", "-o", tmp.resolve("rec").toString(), "--", "python", "x.py"),
                "must start with java");
        assertFalse(Files.exists(tmp.resolve("rec")), "nothing created for a command that cannot be recorded");
    }

    @Test
    void orderFieldThatNamesNoField() {
        for (String bad : new String[] {"counter", "corpus.threads.Racy.", "corpus..Racy.counter", "corpus.threads.Racy.1st"}) {
            List<String> args = new ArrayList<>(List.of("record", "--order-field", bad, "-o", tmp.resolve("rec").toString(), "--"));
            args.addAll(corpus("corpus.threads.Racy"));
            assertUsageError(reprise(args.toArray(String[]::new)), "--order-field wants CLASS.FIELD");
        }
    }

    @Test
    void recordIntoANonEmptyDirectory() throws Exception {
        Path rec = Files.createDirectory(tmp.resolve("rec"));
        Files.writeString(rec.resolve("precious.txt"), "keep me");
        List<String> args = new ArrayList<>(List.of("record", "-o", rec.toString(), "--"));
        args.addAll(corpus("corpus.single.Clocks"));
        assertUsageError(reprise(args.toArray(String[]::new)), "not empty");
        assertEquals("keep me", Reprise.read(rec.resolve("precious.txt")));
        assertEquals(1, rec.toFile().list().length);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "record", "replay", "inspect"})
    void helpExitsZero(String subcommand) {
        Run run = subcommand.isEmpty() ? reprise("--help") : reprise(subcommand, "--help");
        assertEquals(0, run.status(), run::toString);
        assertTrue(run.stdout().startsWith("Usage: reprise"), run::toString);
        assertEquals("", run.stderr());
    }

    private static Run reprise(String... args) {
        return Reprise.reprise(List.of(args), null, Map.of(), null);
    }

    private static void assertUsageError(Run run, String message) {
        assertEquals(2, run.status(), run::toString);
        assertTrue(run.stderr().startsWith("reprise: "), run::toString);
        assertTrue(run.stderr().contains(message), () -> "says " + message + "\n" + run);
        assertFalse(run.stderr().contains("Exception"), run::toString);
        assertEquals("", run.stdout());
    }
}
