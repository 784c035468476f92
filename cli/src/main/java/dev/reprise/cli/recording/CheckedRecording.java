package dev.reprise.cli.recording;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import dev.reprise.core.recording.EndOfRun;
import dev.reprise.core.recording.Recording;

/**
 * A recording read in full and found consistent: its manifest, and every stream verified chunk
 * by chunk and counted against the manifest. Replay starts only from a checked recording, so a
 * damaged one is reported up front with the file and offset, never replayed into a false
 * divergence or a silently shorter run.
 *
 * <p>A torn last chunk is what a killed recorder leaves and is accepted only when the manifest
 * says the run did not complete. A provisional manifest (the recorder was killed before the
 * program ended) is read with the counts the streams themselves hold. Event counts must match the manifest in every recording: the
 * recorder writes the counts of the events it flushed, so fewer events mean a truncated file.
 */
public record CheckedRecording(RecordingDir dir, Manifest manifest, List<StreamScan> streams) {

    /** Checked by chunk: every checksum and the event counts the chunks declare (what replay needs). */
    public static CheckedRecording open(Path path) throws RecordingException {
        return open(path, false);
    }

    /** Checked by event: every event header is read too, and counted by kind ({@link StreamScan#byOp}). */
    public static CheckedRecording openReadingEvents(Path path) throws RecordingException {
        return open(path, true);
    }

    private static CheckedRecording open(Path path, boolean readEvents) throws RecordingException {
        RecordingDir rec = RecordingDir.open(path);
        Manifest m = rec.manifest();
        int runOp = readEvents ? opId(rec, StreamScan.RELAXED_RUN) : -1;
        Map<String, StreamScan> scans = new TreeMap<>();
        for (Path s : rec.streams()) {
            StreamScan scan = readEvents ? StreamScan.of(s, runOp) : StreamScan.counted(s);
            scans.put(scan.thread(), scan);
        }
        if (m.exitStatus() == Manifest.UNKNOWN_STATUS) {
            // The recorder was killed: the streams say how far the program got.
            Map<String, Long> counts = new TreeMap<>();
            scans.forEach((thread, scan) -> counts.put(thread, scan.events()));
            EndOfRun end = rec.endOfRun();
            m = m.provisionalAsCut(rec.jvmProperties(), counts, end != null && end.recorderGone());
        }
        for (Map.Entry<String, Long> t : m.threads().entrySet()) {
            if (t.getValue() > 0 && !scans.containsKey(t.getKey())) {
                throw new RecordingException(rec.streamFile(t.getKey()), "missing: the manifest lists "
                        + t.getValue() + " events for thread " + t.getKey());
            }
        }
        for (StreamScan scan : scans.values()) {
            check(rec, m, scan);
        }
        return new CheckedRecording(rec, m, List.copyOf(scans.values()));
    }

    /** The id of the operation called {@code name} in the recording's table, or -1. */
    private static int opId(RecordingDir rec, String name) throws RecordingException {
        java.util.Properties ops = rec.ops();
        if (ops != null) {
            for (String id : ops.stringPropertyNames()) {
                if (name.equals(ops.getProperty(id))) {
                    try {
                        return Integer.parseInt(id);
                    } catch (NumberFormatException e) {
                        throw new RecordingException(rec.file(Recording.OPS), "unreadable: operation id '" + id + "'");
                    }
                }
            }
        }
        return -1;
    }

    private static void check(RecordingDir rec, Manifest m, StreamScan scan) throws RecordingException {
        if (scan.tornAt() >= 0 && m.completed()) {
            throw new RecordingException(scan.file(), scan.tornAt(),
                    "last chunk cut short, yet the manifest says the run completed");
        }
        Long listed = m.threads().get(scan.thread());
        if (listed == null) {
            throw new RecordingException(scan.file(), "a stream for thread " + scan.thread() + ", which "
                    + rec.file(Recording.MANIFEST) + " does not list");
        }
        if (scan.events() != listed) {
            String what = scan.events() < listed ? "truncated: " : "longer than recorded: ";
            throw new RecordingException(scan.file(), scan.fileBytes(), what + "the stream ends after "
                    + scan.events() + " events, the manifest lists " + listed + " for thread " + scan.thread());
        }
    }
}
