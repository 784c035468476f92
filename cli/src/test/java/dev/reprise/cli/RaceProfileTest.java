package dev.reprise.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Which profile a program's class path names: its classes, read whatever files it holds; and how
 * long its recordings go on looking for races.
 */
class RaceProfileTest {
    @TempDir
    Path tmp;

    /**
     * commons-compress's test classes directory holds damaged archives that start as zips: the
     * profile could not be read, and its first RTO recording learned nothing, every time. Such a
     * file named on the class path itself is digested by its bytes.
     */
    @Test
    void aFileThatStartsAsAZipButIsNoneIsDigestedByItsBytes() throws IOException {
        Path classes = Files.createDirectories(tmp.resolve("tests"));
        Path damaged = classes.resolve("truncated.zip");
        Files.write(damaged, new byte[] {'P', 'K', 3, 4, 1, 2, 3});
        JavaCommand java = JavaCommand.parse(List.of("java", "-cp", "tests/truncated.zip", "Main"));
        Path first = RaceProfile.of(tmp.resolve("cache"), java, tmp).file();
        assertEquals(first, RaceProfile.of(tmp.resolve("cache"), java, tmp).file());
        Files.write(damaged, new byte[] {'P', 'K', 3, 4, 1, 2, 4});
        assertNotEquals(first, RaceProfile.of(tmp.resolve("cache"), java, tmp).file());
    }

    /**
     * {@code java -cp . Main}, recorded with {@code -o rec} in that directory: the recordings and
     * whatever else the program or its user write there leave its profile as it was, so later
     * recordings order what earlier ones learned; a changed class makes it another program.
     */
    @Test
    void aClassPathDirectoryIsItsClassFiles() throws IOException {
        Path dot = Files.createDirectories(tmp.resolve("work"));
        Files.write(Files.createDirectories(dot.resolve("app")).resolve("Main.class"), new byte[] {(byte) 0xCA, (byte) 0xFE, 1});
        JavaCommand java = JavaCommand.parse(List.of("java", "-cp", ".", "app.Main"));
        Path first = RaceProfile.of(tmp.resolve("cache"), java, dot).file();

        Path rec = Files.createDirectories(dot.resolve("rec/streams"));
        Files.write(rec.resolve("t1.rpl"), new byte[] {1, 2, 3});
        Files.write(dot.resolve("rec/manifest.json"), "{}".getBytes());
        Files.write(dot.resolve("rec/streams/Leftover.class"), new byte[] {9}); // inside a recording: not the program's
        Files.write(dot.resolve("out.log"), "the program's output".getBytes());
        assertEquals(first, RaceProfile.of(tmp.resolve("cache"), java, dot).file());

        Files.write(dot.resolve("app/Main.class"), new byte[] {(byte) 0xCA, (byte) 0xFE, 2});
        assertNotEquals(first, RaceProfile.of(tmp.resolve("cache"), java, dot).file());
    }

    /** {@code -cp 'lib/*'} is the jars in {@code lib}, as the JVM expands it. */
    @Test
    void aWildcardIsTheJarsItExpandsTo() throws IOException {
        Path lib = Files.createDirectories(tmp.resolve("lib"));
        Files.write(lib.resolve("a.jar"), new byte[] {1, 2, 3});
        JavaCommand java = JavaCommand.parse(List.of("java", "-cp", "lib/*", "Main"));
        Path first = RaceProfile.of(tmp.resolve("cache"), java, tmp).file();
        Files.write(lib.resolve("notes.txt"), new byte[] {4});
        assertEquals(first, RaceProfile.of(tmp.resolve("cache"), java, tmp).file());
        Files.write(lib.resolve("b.jar"), new byte[] {5});
        assertNotEquals(first, RaceProfile.of(tmp.resolve("cache"), java, tmp).file());
    }

    /** Recordings look until one finds nothing new, three at most; what each found is kept. */
    @Test
    void recordingsLookUntilOneFindsNothingNewThreeAtMost() throws IOException {
        JavaCommand java = JavaCommand.parse(List.of("java", "-cp", "app", "Main"));
        RaceProfile profile = RaceProfile.of(Files.createDirectories(tmp.resolve("cache")), java, tmp);
        assertTrue(profile.stillLearning(), "no recording looked yet");
        profile.add(List.of("app/A.x"));
        assertTrue(profile.stillLearning(), "the first found a race");
        profile.add(List.of());
        assertFalse(profile.stillLearning(), "the second found nothing new");
        assertEquals(List.of("app/A.x"), profile.fields());

        RaceProfile other = RaceProfile.of(tmp.resolve("cache"), JavaCommand.parse(List.of("java", "-cp", "app", "Other")), tmp);
        other.add(List.of("app/A.x"));
        other.add(List.of("app/B.y"));
        assertTrue(other.stillLearning(), "two looked, the last found a race");
        other.add(List.of("app/C.z"));
        assertFalse(other.stillLearning(), "three looked");
        assertEquals(List.of("app/A.x", "app/B.y", "app/C.z"), other.fields());
    }

    /** A profile kept before it counted the recordings that looked is settled: nothing more looks by itself. */
    @Test
    void aProfileWithoutItsCountIsSettled() throws IOException {
        RaceProfile profile = RaceProfile.of(tmp.resolve("cache"), JavaCommand.parse(List.of("java", "-cp", "app", "Main")), tmp);
        Files.createDirectories(profile.file().getParent());
        Files.write(profile.file(), List.of("app/A.x"));
        assertFalse(profile.stillLearning());
        assertEquals(List.of("app/A.x"), profile.fields());
    }
}
