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
        for (String bad : new String[] {"counter", "corpus.threads.Racy.", "corpus..Racy.counter", "corpus.threads.Racy.1st",
                "corpus.threads.Racy#hsh", "#hash"}) {
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

    /** Without {@code --}, picocli takes the java command's options as record's own. */
    @Test
    void recordWithoutDashDashBeforeTheJavaCommand() {
        Run run = reprise("record", "-o", tmp.resolve("rec").toString(), "java", "-cp", "app.jar", "app.Main");
        assertUsageError(run, "Unknown option: '-cp'; put -- before the java command: reprise record [OPTIONS] -- java ...");
        assertFalse(Files.exists(tmp.resolve("rec")));
    }

    /** A recording directory that cannot be made says why, and a mistyped parent is not created. */
    @Test
    void recordIntoADirectoryThatCannotBeMade() throws Exception {
        Path file = Files.writeString(tmp.resolve("file"), "x");
        Map<Path, String> cases = Map.of(
                tmp.resolve("no/such/rec"), tmp.resolve("no/such/rec") + ": no directory " + tmp.resolve("no/such") + " to create it in",
                file, file + " exists and is not a directory",
                file.resolve("rec"), file.resolve("rec") + ": Not a directory");
        for (Map.Entry<Path, String> c : cases.entrySet()) {
            List<String> args = new ArrayList<>(List.of("record", "-o", c.getKey().toString(), "--"));
            args.addAll(corpus("corpus.single.Clocks"));
            assertUsageError(reprise(args.toArray(String[]::new)), "reprise: cannot create the recording directory: " + c.getValue() + "\n");
        }
        assertFalse(Files.exists(tmp.resolve("no")));
    }

    @Test
    void negativeChaosSeed() {
        assertUsageError(reprise("replay", tmp.toString(), "--chaos", "-5"), "--chaos wants a seed from 0 to 9223372036854775807, not -5");
    }

    /** The help's list of commands gives each one's first sentence whole. */
    @Test
    void helpSummariesAreWholeSentences() {
        String help = reprise("--help").stdout();
        String commands = help.substring(help.indexOf("Commands:\n") + 10, help.indexOf("\n\n", help.indexOf("Commands:")));
        for (String summary : commands.split("\n(?=  \\S)")) {
            assertTrue(summary.strip().endsWith("."), summary);
        }
    }

    /**
     * A recording another user cannot read says so, not that it is corrupt: the command is run as
     * user nobody on a recording whose manifest, then one stream, only root may read.
     */
    @Test
    void unreadableRecordingSaysPermissionDenied() throws Exception {
        Path rec = tmp.resolve("rec");
        assertEquals(0, Reprise.record(rec, corpus("corpus.single.Clocks")).status());
        Files.setPosixFilePermissions(tmp, java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x"));
        try (java.util.stream.Stream<Path> files = Files.walk(rec)) {
            for (Path p : files.toList()) {
                Files.setPosixFilePermissions(p, java.nio.file.attribute.PosixFilePermissions.fromString(
                        Files.isDirectory(p) ? "rwxr-xr-x" : p.endsWith("manifest.json") ? "rw-------" : "rw-r--r--"));
            }
        }
        List<String> asNobody = new ArrayList<>(List.of("setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"));
        asNobody.addAll(Reprise.repriseCommand(List.of("inspect", rec.toString())));
        Run run = Reprise.exec(asNobody, null, Map.of("REPRISE_CACHE_DIR", ""), null);
        assertEquals(4, run.status(), run::toString);
        assertEquals("reprise: " + rec.resolve("manifest.json") + ": cannot read: permission denied\n", run.stderr());

        Files.setPosixFilePermissions(rec.resolve("manifest.json"), java.nio.file.attribute.PosixFilePermissions.fromString("rw-r--r--"));
        Files.setPosixFilePermissions(rec.resolve("streams/t1.rpl"), java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));
        run = Reprise.exec(asNobody, null, Map.of("REPRISE_CACHE_DIR", ""), null);
        assertEquals(4, run.status(), run::toString);
        assertEquals("reprise: " + rec.resolve("streams/t1.rpl") + ": cannot read: permission denied\n", run.stderr());
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "record", "replay", "back", "inspect"})
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
