package dev.reprise.cli.recording;

import java.io.IOException;
import java.nio.file.Path;

import dev.reprise.core.log.RecordingCorruptException;

/** A recording that cannot be used: names the file (and offset, when known). Exit status 4. */
public final class RecordingException extends Exception {
    public RecordingException(Path file, String what) {
        super(file + ": " + what);
    }

    public RecordingException(Path file, long offset, String what) {
        super(file + " at offset " + offset + ": " + what);
    }

    /** {@code file} could not be read: why, in words (the JDK's exception names only the file). */
    public static RecordingException cannotRead(Path file, IOException e) {
        return new RecordingException(file, RecordingCorruptException.cannotRead(file, e).what());
    }
}
