package dev.reprise.cli;

import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.Callable;

import dev.reprise.cli.recording.CheckedRecording;
import dev.reprise.cli.recording.Manifest;
import dev.reprise.cli.recording.RecordingException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code reprise pack}: copies the recorded program's classes into its recording ({@link ProgramClasses}). */
@Command(name = "pack", mixinStandardHelpOptions = true,
        description = {"Copy the recorded program's class path (its jars and class directories) into the recording,"
            + " so that it replays on a machine without them. Run it where the program was recorded."})
final class PackCommand implements Callable<Integer> {
    @Parameters(paramLabel = "DIR", description = "The recording directory.")
    Path dir;

    @Override
    public Integer call() {
        Manifest m;
        try {
            m = CheckedRecording.open(dir).manifest();
        } catch (RecordingException e) {
            Main.say(e.getMessage());
            return ExitCodes.CORRUPT;
        }
        if (ProgramClasses.packed(dir)) {
            Main.say(dir + " holds its program's classes already");
            return 0;
        }
        ProgramClasses classes;
        try {
            classes = ProgramClasses.of(JavaCommand.parse(m.command()), m.cwd());
        } catch (IllegalArgumentException e) {
            Main.say(dir + ": recorded command unusable: " + e.getMessage());
            return ExitCodes.CORRUPT;
        }
        try {
            classes.pack(dir);
        } catch (IOException e) {
            Main.say("cannot pack the program's classes into " + dir + ": " + e.getMessage());
            return ExitCodes.USAGE;
        }
        Main.say("packed the program's classes into " + dir.resolve(ProgramClasses.PACKED) + ": its replays load them from there");
        return 0;
    }
}
