package dev.reprise.core.log;

import java.nio.file.Path;

/** A recording file that cannot be read: names the file and the byte offset of the damage. */
public final class RecordingCorruptException extends RuntimeException {
    private final Path file;
    private final long offset;
    private final String what;

    public RecordingCorruptException(Path file, long offset, String what) {
        super(file + " at offset " + offset + ": " + what);
        this.file = file;
        this.offset = offset;
        this.what = what;
    }

    /** The damage, without file and offset. */
    public String what() {
        return what;
    }

    public Path file() {
        return file;
    }

    public long offset() {
        return offset;
    }
}
