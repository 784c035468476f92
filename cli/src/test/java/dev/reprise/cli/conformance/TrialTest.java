package dev.reprise.cli.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A replay's stderr is compared with the program's part of the recording's: record's own lines are no output of the program. */
class TrialTest {
    @TempDir
    Path tmp;

    @Test
    void recordsOwnLinesAreLeftOutWhateverTheirPlace() throws IOException {
        Path err = tmp.resolve("record.err");
        Files.writeString(err, "reprise: ordering the plain fields earlier recordings of this program raced on: a.B.c\n"
                + "warning: the program's own\n" + "reprise: the recorded run raced on field c of class a.B\n"
                + "last line, unterminated");
        assertEquals("warning: the program's own\nlast line, unterminated",
                new String(Trial.programLines(err), StandardCharsets.UTF_8));
    }

    @Test
    void aLineThatOnlyMentionsRepriseIsTheProgramsOwn() throws IOException {
        Path err = tmp.resolve("replay.err");
        Files.writeString(err, "  reprise: indented, so the program's\nreprise:no space\n");
        assertEquals("  reprise: indented, so the program's\nreprise:no space\n",
                new String(Trial.programLines(err), StandardCharsets.UTF_8));
    }
}
