package dev.reprise.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Which profile a program's class path names: its contents, read whatever files it holds. */
class RaceProfileTest {
    @TempDir
    Path tmp;

    /**
     * commons-compress's test classes directory holds damaged archives that start as zips: the
     * profile could not be read, and its first RTO recording learned nothing, every time.
     */
    @Test
    void aFileThatStartsAsAZipButIsNoneIsDigestedByItsBytes() throws IOException {
        Path classes = Files.createDirectories(tmp.resolve("tests"));
        Path damaged = classes.resolve("truncated.zip");
        Files.write(damaged, new byte[] {'P', 'K', 3, 4, 1, 2, 3});
        JavaCommand java = JavaCommand.parse(List.of("java", "-cp", "tests", "Main"));
        Path first = RaceProfile.of(tmp.resolve("cache"), java, tmp).file();
        assertEquals(first, RaceProfile.of(tmp.resolve("cache"), java, tmp).file());
        Files.write(damaged, new byte[] {'P', 'K', 3, 4, 1, 2, 4});
        assertNotEquals(first, RaceProfile.of(tmp.resolve("cache"), java, tmp).file());
    }
}
