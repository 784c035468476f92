package dev.reprise.cli.recording;

import java.io.IOException;
import java.io.InputStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.stream.Stream;

import com.google.gson.Gson;
import com.google.gson.GsonBuilder;
import com.google.gson.JsonElement;
import com.google.gson.JsonParseException;
import com.google.gson.JsonParser;

import dev.reprise.core.log.LogWriter;
import dev.reprise.core.log.RecordingCorruptException;

/** A recording directory on disk: its manifest, its streams and the recorder's side files. */
public final class RecordingDir {
    /** The agent's end marker (its {@code RunInfo}): written by the program's exit, with the streams' counts. */
    public static final String END = "end.properties";
    /** In {@link #END}: why writing the streams failed; no counts then. */
    public static final String WRITE_FAILED = "writeFailed";
    /** In {@link #END}: the agent ended the program because {@code reprise record} was gone. */
    public static final String RECORDER_GONE = "recorderGone";
    private static final Gson GSON = new GsonBuilder().setPrettyPrinting().disableHtmlEscaping().create();

    private final Path dir;

    private RecordingDir(Path dir) {
        this.dir = dir;
    }

    /** A new, private (0700) directory for a recording; refuses one that holds anything. */
    public static RecordingDir create(Path dir) throws IOException {
        if (Files.isDirectory(dir)) {
            try (Stream<Path> s = Files.list(dir)) {
                if (s.findAny().isPresent()) {
                    throw new IOException(dir + " exists and is not empty");
                }
            }
            Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx------"));
        } else {
            Files.createDirectories(dir.toAbsolutePath().getParent());
            Files.createDirectory(dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        }
        return new RecordingDir(dir);
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

    public Path path() {
        return dir;
    }

    public Manifest manifest() throws RecordingException {
        Path file = dir.resolve(Manifest.FILE);
        String json;
        try {
            json = Files.readString(file, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            throw new RecordingException(file, "missing: not a Reprise recording (or recording still running)");
        } catch (IOException e) {
            throw new RecordingException(file, "cannot read: " + e.getMessage());
        }
        JsonElement tree;
        try {
            tree = JsonParser.parseString(json);
        } catch (JsonParseException e) {
            throw new RecordingException(file, "not valid JSON: " + problem(e));
        }
        if (!tree.isJsonObject()) {
            throw new RecordingException(file, "not a Reprise manifest: not a JSON object");
        }
        // The format first: a newer recording may not have the fields this version expects.
        JsonElement format = tree.getAsJsonObject().get("format");
        if (format == null || !format.isJsonPrimitive() || !format.getAsJsonPrimitive().isNumber()) {
            throw new RecordingException(file, "not a Reprise manifest: no format version");
        }
        if (format.getAsInt() < Manifest.OLDEST_FORMAT || format.getAsInt() > Manifest.FORMAT) {
            throw new RecordingException(file, "recording format " + format.getAsInt()
                    + (format.getAsInt() > Manifest.FORMAT ? ", written by a newer Reprise" : ", not supported")
                    + "; this Reprise reads formats " + Manifest.OLDEST_FORMAT + " to " + Manifest.FORMAT);
        }
        Manifest m;
        try {
            m = GSON.fromJson(tree, Manifest.class);
        } catch (JsonParseException | IllegalArgumentException | IllegalStateException e) {
            throw new RecordingException(file, "not a Reprise manifest: " + problem(e));
        }
        if (m.command() == null || m.command().isEmpty() || m.cwd() == null || m.threads() == null) {
            throw new RecordingException(file, "not a Reprise manifest: command, cwd or threads missing");
        }
        return m;
    }

    /** Gson's description of bad JSON, without the exception class names it wraps it in. */
    private static String problem(RuntimeException e) {
        return e.getCause() != null && e.getCause().getMessage() != null ? e.getCause().getMessage() : e.getMessage();
    }

    public void writeManifest(Manifest m) throws IOException {
        Path file = dir.resolve(Manifest.FILE);
        Path tmp = dir.resolve(Manifest.FILE + ".tmp");
        Files.deleteIfExists(tmp);
        Files.createFile(tmp, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        try (Writer w = Files.newBufferedWriter(tmp, StandardCharsets.UTF_8, StandardOpenOption.WRITE)) {
            GSON.toJson(m, w);
        }
        Files.move(tmp, file, java.nio.file.StandardCopyOption.ATOMIC_MOVE, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    }

    /** A recorder side file (see the agent's RunInfo), or null if absent. */
    public Properties sideFile(String name) throws RecordingException {
        Path file = dir.resolve(name);
        if (!Files.exists(file)) {
            return null;
        }
        Properties p = new Properties();
        try (InputStream in = Files.newInputStream(file)) {
            p.load(in);
        } catch (IOException | IllegalArgumentException e) {
            throw new RecordingException(file, "unreadable: " + e.getMessage());
        }
        return p;
    }

    /** Stream files, one per recorded thread, sorted by thread path. */
    public List<Path> streams() throws RecordingException {
        Path sdir = dir.resolve("streams");
        List<Path> out = new ArrayList<>();
        if (!Files.isDirectory(sdir)) {
            return out;
        }
        try (Stream<Path> s = Files.list(sdir)) {
            s.filter(p -> p.getFileName().toString().endsWith(".rpl")).sorted().forEach(out::add);
        } catch (IOException e) {
            throw new RecordingException(sdir, "cannot list: " + e.getMessage());
        }
        return out;
    }

    /** The events each stream holds, by thread, counted from the streams themselves. */
    public static java.util.Map<String, Long> scannedCounts(RecordingDir rec) throws RecordingException {
        java.util.Map<String, Long> counts = new java.util.TreeMap<>();
        for (Path s : rec.streams()) {
            counts.put(threadOf(s), StreamScan.counted(s).events());
        }
        return counts;
    }

    /** Where the stream of thread {@code path} is (or would be). */
    public Path streamFile(String path) {
        return LogWriter.streamFile(dir, "t" + path);
    }

    /** Thread path of a stream file: {@code streams/t1.2.rpl} is thread {@code 1.2}. */
    public static String threadOf(Path stream) {
        String n = stream.getFileName().toString();
        return n.substring(1, n.length() - ".rpl".length());
    }

    /** Wraps a core format error as a recording error of this directory. */
    public static RecordingException corrupt(RecordingCorruptException e) {
        return new RecordingException(e.file(), e.offset(), "corrupt: " + e.what());
    }
}
