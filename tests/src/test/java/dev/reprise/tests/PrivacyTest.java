package dev.reprise.tests;

import static dev.reprise.tests.Reprise.corpus;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

import dev.reprise.core.log.ChunkReader;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A recording holds what the program read: only its owner may read it. Directories are 0700 and
 * files 0600, whatever the umask and whoever created them. Of the environment it holds only the
 * variables the program read, and of those {@code --redact-env} names, a placeholder.
 */
class PrivacyTest {
    @TempDir
    Path tmp;

    @Test
    void newRecordingDirectoryIsPrivate() throws Exception {
        Path rec = tmp.resolve("rec");
        assertEquals(0, Reprise.record(rec, corpus("corpus.single.Clocks")).status());
        assertPrivate(rec);
    }

    @Test
    void existingEmptyDirectoryIsMadePrivate() throws Exception {
        Path rec = Files.createDirectory(tmp.resolve("rec"),
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwxr-xr-x")));
        assertEquals(7, Reprise.record(rec, corpus("corpus.single.Exits", "exit", "7")).status());
        assertPrivate(rec);
    }

    @Test
    void aVariableTheProgramDoesNotReadIsNotRecorded() throws Exception {
        String secret = "s3cret-" + System.nanoTime();
        Path rec = tmp.resolve("rec");
        Run run = Reprise.record(rec, corpus("corpus.single.Clocks"), null, Map.of("REPRISE_TEST_SECRET", secret));
        assertEquals(0, run.status(), run::toString);
        assertNowhereIn(rec, secret);
    }

    /**
     * The program runs with the real value and prints it; the recording holds the placeholder, so
     * the replay prints something else and stops as diverged, without printing the value.
     */
    @Test
    void aRedactedVariableIsNotRecorded() throws Exception {
        String secret = "s3cret-" + System.nanoTime();
        Path rec = tmp.resolve("rec");
        List<String> args = new ArrayList<>(List.of("record", "--redact-env", "REPRISE_*_TOKEN", "-o", rec.toString(), "--"));
        args.addAll(corpus("corpus.single.PrintsVariable", "REPRISE_TEST_TOKEN"));
        Run recorded = Reprise.reprise(args, null, Map.of("REPRISE_TEST_TOKEN", secret), null);
        assertEquals(0, recorded.status(), recorded::toString);
        assertEquals("REPRISE_TEST_TOKEN=" + secret + "\nin the map: " + secret + "\n", recorded.stdout());
        assertNowhereIn(rec, secret);
        Run replayed = Reprise.replay(rec);
        assertEquals(3, replayed.status(), replayed::toString);
        assertFalse(replayed.stdout().contains(secret), replayed::toString);
        assertTrue(replayed.stderr().startsWith("reprise: replay diverged"), replayed::toString);
    }

    /** Neither in any file of {@code rec} as it is, nor in the streams' chunks decompressed. */
    private static void assertNowhereIn(Path rec, String secret) throws Exception {
        byte[] needle = secret.getBytes(StandardCharsets.UTF_8);
        List<Path> files;
        try (Stream<Path> s = Files.walk(rec)) {
            files = s.filter(Files::isRegularFile).toList();
        }
        for (Path f : files) {
            assertFalse(contains(Files.readAllBytes(f), needle), f::toString);
            if (f.toString().endsWith(".rpl")) {
                try (ChunkReader chunks = new ChunkReader(f)) {
                    for (byte[] raw = chunks.next(); raw != null; raw = chunks.next()) {
                        assertFalse(contains(raw, needle), () -> f + ", decompressed");
                    }
                }
            }
        }
    }

    private static boolean contains(byte[] hay, byte[] needle) {
        for (int i = 0; i + needle.length <= hay.length; i++) {
            if (java.util.Arrays.equals(hay, i, i + needle.length, needle, 0, needle.length)) {
                return true;
            }
        }
        return false;
    }

    private static void assertPrivate(Path rec) throws Exception {
        List<Path> all;
        try (Stream<Path> s = Files.walk(rec)) {
            all = s.toList();
        }
        Set<String> names = new java.util.TreeSet<>();
        for (Path p : all) {
            String mode = PosixFilePermissions.toString(Files.getPosixFilePermissions(p));
            assertEquals(Files.isDirectory(p) ? "rwx------" : "rw-------", mode, p::toString);
            names.add(rec.relativize(p).toString());
        }
        assertTrue(names.containsAll(List.of("manifest.json", "jvm.properties", "ops.properties", "end.properties",
                "streams", "streams/t1.rpl")), names::toString);
    }
}
