package dev.reprise.cli.recording;

import java.nio.file.Path;

/** A recording that cannot be used: names the file (and offset, when known). Exit status 4. */
public final class RecordingException extends Exception {
    public RecordingException(Path file, String what) {
        super(file + ": " + what);
    }

    public RecordingException(Path file, long offset, String what) {
        super(file + " at offset " + offset + ": " + what);
    }
}
