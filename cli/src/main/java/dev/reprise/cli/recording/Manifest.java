package dev.reprise.cli.recording;

import java.util.List;
import java.util.Map;

/**
 * {@code manifest.json}: what was run, where, and how it ended. Written by {@code reprise record}
 * when the program exits, also when it was killed, and sealed by {@code manifest.sha256}
 * ({@link RecordingDir}); read by {@link ManifestParser}.
 *
 * @param format      recording format version ({@link #FORMAT}; from {@link #OLDEST_FORMAT} on, this
 *                    version reads it)
 * @param reprise     Reprise version that recorded
 * @param jvm         java.version, java.vendor, java.home, os of the recorded JVM
 * @param command     the command after {@code --}, as typed
 * @param cwd         working directory of the recorded run
 * @param order       ordering of synchronization: {@code rto} or {@code to}
 * @param exitStatus  the program's exit status; 128+n if killed by signal n
 * @param completed   true if the JVM exited normally and flushed every stream
 * @param threads     recorded threads by creation path, with their event counts
 * @param orderedFields plain fields ordered as synchronization actions ({@code record --order-field}),
 *                    as {@code internal/class/Name.field}; absent (null) in recordings without them
 * @param files       the SHA-256, in hex, of each of the recorder's side files by name
 *                    ({@link RecordingDir#SIDE_FILES}); the streams' chunks carry their own checksums
 */
public record Manifest(int format, String reprise, Map<String, String> jvm, List<String> command, String cwd,
                       String order, int exitStatus, boolean completed,
                       long startedAtMillis, long durationMillis, Map<String, Long> threads,
                       List<String> orderedFields, Map<String, String> files) {
    /**
     * 4: no environment; a checksum of every file ({@code files}, {@code manifest.sha256}). 3: a
     * reference read that found its referent is counted in the thread's relaxed runs
     * ({@code ref.get.relaxed}), not written. 2: an event may be ordered after several others (a
     * write after each reader since the last write).
     */
    public static final int FORMAT = 4;
    /** Earlier formats have no checksums of the manifest and side files: they are refused, not trusted. */
    public static final int OLDEST_FORMAT = 4;
    public static final String FILE = "manifest.json";

    /** The fields {@code record --order-field} named; empty for a recording made without. */
    public List<String> fieldsOrdered() {
        return orderedFields == null ? List.of() : orderedFields;
    }
}
