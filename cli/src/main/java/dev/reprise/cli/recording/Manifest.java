package dev.reprise.cli.recording;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import com.google.gson.Gson;
import com.google.gson.GsonBuilder;

import dev.reprise.core.recording.Recording;

/**
 * {@code manifest.json}: what was run, where, and how it ended. Written by {@code reprise record}
 * as the program starts (provisional: {@link #UNKNOWN_STATUS}, no counts, no side files), and
 * again when the program exits, also when it was killed; sealed by {@code manifest.sha256}
 * (core's {@code RecordingWriter}); read by {@link ManifestParser}.
 *
 * @param format      recording format version ({@link #FORMAT}; from {@link #OLDEST_FORMAT} on, this
 *                    version reads it)
 * @param reprise     Reprise version that recorded
 * @param jvm         java.version, java.vendor, java.home, os of the recorded JVM
 * @param command     the command after {@code --}, as typed
 * @param cwd         working directory of the recorded run
 * @param order       ordering of synchronization: {@code rto} or {@code to}
 * @param exitStatus  the program's exit status; 128+n if killed by signal n; {@link #UNKNOWN_STATUS} in a
 *                    provisional manifest, which a recorder killed outright leaves
 * @param completed   true if the JVM exited normally and flushed every stream
 * @param threads     recorded threads by creation path, with their event counts
 * @param orderedFields plain fields ordered as synchronization actions ({@code record --order-field}),
 *                    as {@code internal/class/Name.field}; absent (null) in recordings without them
 * @param files       the SHA-256, in hex, of each of the recorder's side files by name
 *                    ({@link Recording#SIDE_FILES}); the streams' chunks carry their own checksums
 */
public record Manifest(int format, String reprise, Map<String, String> jvm, List<String> command, String cwd,
                       String order, int exitStatus, boolean completed,
                       long startedAtMillis, long durationMillis, Map<String, Long> threads,
                       List<String> orderedFields, Map<String, String> files) {
    /**
     * 7: a cleanup stream's first event names, after its thread's name, the identity hash that
     * thread showed the program. 6: a native library's load logs what it threw as a value, after its copy's name, and the copy
     * keeps the library's file name. 5: an exception's stack frames inside the operation; a mapped region's copy. 4: no environment; a checksum of every file ({@code files}, {@code manifest.sha256}). 3: a
     * reference read that found its referent is counted in the thread's relaxed runs
     * ({@code ref.get.relaxed}), not written. 2: an event may be ordered after several others (a
     * write after each reader since the last write).
     */
    public static final int FORMAT = 7;
    /**
     * Earlier formats have no checksums of the manifest and side files, or events this version
     * decodes otherwise: they are refused, not misread.
     */
    public static final int OLDEST_FORMAT = 7;
    private static final Gson GSON = new GsonBuilder().setPrettyPrinting().disableHtmlEscaping().create();
    /** The status of a provisional manifest: the recorder did not see the program end. */
    public static final int UNKNOWN_STATUS = -1;
    /** A provisional recording's status when the agent ended the program for its recorder's death, as a SIGTERM. */
    public static final int RECORDER_GONE_STATUS = 128 + 15;
    /** A provisional recording's status otherwise: the program's end was not seen, as if killed (SIGKILL). */
    public static final int UNSEEN_END_STATUS = 128 + 9;

    /**
     * This manifest with what the recording itself holds, where the recorder did not see the end:
     * the JVM's properties as its agent wrote them, every stream's count, the status the recorder's
     * death gave the program, not completed.
     */
    public Manifest provisionalAsCut(Map<String, String> jvm, Map<String, Long> counts, boolean recorderGone) {
        return new Manifest(format, reprise, jvm, command, cwd, order,
                recorderGone ? RECORDER_GONE_STATUS : UNSEEN_END_STATUS, false, startedAtMillis, durationMillis, counts,
                orderedFields, files);
    }

    /** The manifest's text, as {@code record} writes it. */
    public byte[] toJson() {
        return GSON.toJson(this).getBytes(StandardCharsets.UTF_8);
    }

    /** The fields {@code record --order-field} named; empty for a recording made without. */
    public List<String> fieldsOrdered() {
        return orderedFields == null ? List.of() : orderedFields;
    }
}
