package dev.reprise.core.log;

import java.nio.file.Path;

/** A recording file that cannot be read: names the file and, within a stream, the byte offset of the damage. */
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

    /** Damage to {@code file} as a whole (no offset: {@link #offset} is -1). */
    public RecordingCorruptException(Path file, String what) {
        super(file + ": " + what);
        this.file = file;
        this.offset = -1;
        this.what = what;
    }

    /** {@code file} could not be read: why, in words (the JDK's exception names only the file). */
    public static RecordingCorruptException cannotRead(Path file, java.io.IOException e) {
        String why = e instanceof java.nio.file.AccessDeniedException ? "permission denied"
                : e instanceof java.nio.charset.CharacterCodingException ? "not UTF-8 text"
                : e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName();
        return new RecordingCorruptException(file, "cannot read: " + why);
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
