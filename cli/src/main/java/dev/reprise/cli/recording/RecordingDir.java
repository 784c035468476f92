package dev.reprise.cli.recording;

import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import com.google.gson.JsonElement;

import dev.reprise.core.log.RecordingCorruptException;
import dev.reprise.core.recording.EndOfRun;
import dev.reprise.core.recording.Recording;
import dev.reprise.core.recording.RecordingReader;

/**
 * A recording directory as the commands read it: core's {@link RecordingReader}, which names and
 * reads its files, with the manifest's JSON read here, and any damage a {@link RecordingException}
 * naming the file.
 */
public final class RecordingDir {
    private final RecordingReader reader;

    private RecordingDir(Path dir) {
        this.reader = RecordingReader.of(dir);
    }

    public static RecordingDir open(Path dir) throws RecordingException {
        if (!Files.exists(dir)) {
            throw new RecordingException(dir, "no such recording directory");
        }
        if (!Files.isDirectory(dir)) {
            throw new RecordingException(dir, "not a directory: a recording is a directory");
        }
        return new RecordingDir(dir);
    }

    /** {@code reprise record}: the directory it created, to read what the agent wrote there. */
    public static RecordingDir recordedInto(Path dir) {
        return new RecordingDir(dir);
    }

    public Path path() {
        return reader.path();
    }

    /** {@code name}, one of {@link Recording}'s, in this recording. */
    public Path file(String name) {
        return reader.file(name);
    }

    /**
     * The manifest, checked: UTF-8 and strict JSON, of a format this version reads, sealed by
     * {@value Recording#SEAL} (the SHA-256 of its bytes, as {@code sha256sum} writes it), each field
     * of its type and range ({@link ManifestParser}), and every side file present matching the
     * checksum it lists. Any damage is an exception naming the file, and the field if it is one.
     */
    public Manifest manifest() throws RecordingException {
        Path file = reader.file(Recording.MANIFEST);
        try {
            byte[] bytes = reader.manifestBytes();
            JsonElement tree;
            try {
                tree = StrictJson.parse(StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(bytes)).toString());
            } catch (CharacterCodingException e) {
                throw new RecordingException(file, "not UTF-8 text");
            } catch (IOException | NumberFormatException e) {
                throw new RecordingException(file, "not valid JSON: " + e.getMessage());
            }
            if (!tree.isJsonObject()) {
                throw new RecordingException(file, "not a Reprise manifest: not a JSON object");
            }
            // The format first: a newer recording may not have the fields this version expects.
            JsonElement format = tree.getAsJsonObject().get("format");
            if (format == null || !format.isJsonPrimitive() || !format.getAsJsonPrimitive().isNumber()) {
                throw new RecordingException(file, "not a Reprise manifest: no format version");
            }
            BigDecimal version = format.getAsBigDecimal();
            if (version.compareTo(BigDecimal.valueOf(Manifest.OLDEST_FORMAT)) < 0
                    || version.compareTo(BigDecimal.valueOf(Manifest.FORMAT)) > 0) {
                throw new RecordingException(file, "recording format " + version
                        + (version.compareTo(BigDecimal.valueOf(Manifest.FORMAT)) > 0 ? ", written by a newer Reprise" : ", not supported")
                        + "; this Reprise reads formats " + Manifest.OLDEST_FORMAT + " to " + Manifest.FORMAT);
            }
            reader.checkSeal(bytes);
            Manifest m = ManifestParser.parse(file, tree.getAsJsonObject());
            reader.checkSideFiles(m.files(), m.exitStatus() == Manifest.UNKNOWN_STATUS);
            return m;
        } catch (RecordingCorruptException e) {
            throw corrupt(e);
        }
    }

    /** What the agent wrote of the recorded JVM, sorted by name; empty if absent. */
    public Map<String, String> jvmProperties() throws RecordingException {
        try {
            return reader.jvm();
        } catch (RecordingCorruptException e) {
            throw corrupt(e);
        }
    }

    /** How the recorded JVM's exit ended the run; null if it did not go through its exit. */
    public EndOfRun endOfRun() throws RecordingException {
        try {
            return reader.endOfRun();
        } catch (RecordingCorruptException e) {
            throw corrupt(e);
        }
    }

    /** The operations' names by id; null if absent. */
    public Properties ops() throws RecordingException {
        try {
            return reader.ops();
        } catch (RecordingCorruptException e) {
            throw corrupt(e);
        }
    }

    /** Stream files, one per recorded thread, sorted by thread path. */
    public List<Path> streams() throws RecordingException {
        try {
            return reader.streams();
        } catch (RecordingCorruptException e) {
            throw corrupt(e);
        }
    }

    /** The events each stream holds, by thread, counted from the streams themselves. */
    public static java.util.Map<String, Long> scannedCounts(RecordingDir rec) throws RecordingException {
        java.util.Map<String, Long> counts = new java.util.TreeMap<>();
        for (Path s : rec.streams()) {
            counts.put(Recording.threadOf(s), StreamScan.counted(s).events());
        }
        return counts;
    }

    /** Where the stream of thread {@code path} is (or would be). */
    public Path streamFile(String path) {
        return reader.streamFile(path);
    }

    /** A core error about one of this recording's files as a recording error: with its offset in a stream. */
    public static RecordingException corrupt(RecordingCorruptException e) {
        return e.offset() < 0 ? new RecordingException(e.file(), e.what())
                : new RecordingException(e.file(), e.offset(), "corrupt: " + e.what());
    }
}
