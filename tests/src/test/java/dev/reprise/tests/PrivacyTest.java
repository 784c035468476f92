package dev.reprise.tests;

import static dev.reprise.tests.Reprise.corpus;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A recording holds what the program read and its environment: only its owner may read it.
 * Directories are 0700 and files 0600, whatever the umask and whoever created them.
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
