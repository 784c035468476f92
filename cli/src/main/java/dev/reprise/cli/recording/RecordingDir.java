package dev.reprise.cli.recording;

import java.io.IOException;
import java.io.InputStream;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.stream.Stream;

import com.google.gson.Gson;
import com.google.gson.GsonBuilder;
import com.google.gson.JsonElement;

import dev.reprise.core.log.LogWriter;
import dev.reprise.core.log.RecordingCorruptException;

/** A recording directory on disk: its manifest, its streams and the recorder's side files. */
public final class RecordingDir {
    /** The recorder's side files (the agent's RunInfo), each covered by a checksum in the manifest. */
    public static final List<String> SIDE_FILES = List.of("jvm.properties", "ops.properties", "end.properties");
    /** The checksum of the manifest. */
    public static final String SEAL = "manifest.sha256";
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

    /**
     * A new, private (0700) directory for a recording; refuses one that holds anything, and one
     * whose parent is missing (a mistyped path is not created). The message says why.
     */
    public static RecordingDir create(Path dir) throws IOException {
        try {
            if (Files.isDirectory(dir)) {
                try (Stream<Path> s = Files.list(dir)) {
                    if (s.findAny().isPresent()) {
                        throw new IOException(dir + " exists and is not empty");
                    }
                }
                Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx------"));
            } else {
                Files.createDirectory(dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
            }
        } catch (NoSuchFileException e) {
            throw new IOException(dir + ": no directory " + dir.toAbsolutePath().getParent() + " to create it in");
        } catch (FileAlreadyExistsException e) {
            throw new IOException(dir + " exists and is not a directory");
        } catch (AccessDeniedException e) {
            throw new IOException(dir + ": permission denied");
        } catch (FileSystemException e) {
            throw new IOException(dir + ": " + (e.getReason() != null ? e.getReason() : e.getClass().getSimpleName()));
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

    /**
     * The manifest, checked: UTF-8 and strict JSON, of a format this version reads, sealed by
     * {@value #SEAL} (the SHA-256 of its bytes, as {@code sha256sum} writes it), each field of its
     * type and range ({@link ManifestParser}), and every side file present matching the checksum
     * it lists. Any damage is an exception naming the file, and the field if it is one.
     */
    public Manifest manifest() throws RecordingException {
        Path file = dir.resolve(Manifest.FILE);
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (NoSuchFileException e) {
            throw new RecordingException(file, "missing: not a Reprise recording (or recording still running)");
        } catch (IOException e) {
            throw RecordingException.cannotRead(file, e);
        }
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
        checkSeal(bytes);
        Manifest m = ManifestParser.parse(file, tree.getAsJsonObject());
        checkSideFiles(m);
        return m;
    }

    private void checkSeal(byte[] manifest) throws RecordingException {
        Path seal = dir.resolve(SEAL);
        String text;
        try {
            text = Files.readString(seal, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            throw new RecordingException(seal, "missing: the checksum of " + Manifest.FILE);
        } catch (IOException e) {
            throw RecordingException.cannotRead(seal, e);
        }
        if (!text.equals(sealOf(manifest))) {
            throw new RecordingException(dir.resolve(Manifest.FILE), "checksum mismatch: it is not what " + SEAL + " says was written");
        }
    }

    private void checkSideFiles(Manifest m) throws RecordingException {
        for (String name : SIDE_FILES) {
            Path file = dir.resolve(name);
            String listed = m.files().get(name);
            if (!Files.exists(file)) {
                if (listed != null) {
                    throw new RecordingException(file, "missing: " + Manifest.FILE + " lists its checksum");
                }
                continue;
            }
            if (listed == null && m.exitStatus() == Manifest.UNKNOWN_STATUS) {
                continue; // a provisional manifest was written before the agent wrote any side file
            }
            if (listed == null) {
                throw new RecordingException(file, "not listed in " + Manifest.FILE + "'s files, so not checked: refused");
            }
            try {
                if (!listed.equals(sha256(Files.readAllBytes(file)))) {
                    throw new RecordingException(file, "checksum mismatch: not what " + Manifest.FILE + " lists");
                }
            } catch (IOException e) {
                throw RecordingException.cannotRead(file, e);
            }
        }
    }

    /** What the agent wrote of the recorded JVM ({@code jvm.properties}), sorted by name; empty if absent. */
    public Map<String, String> jvmProperties() throws RecordingException {
        Properties p = sideFile("jvm.properties");
        Map<String, String> jvm = new TreeMap<>();
        if (p != null) {
            for (String k : p.stringPropertyNames()) {
                jvm.put(k, p.getProperty(k));
            }
        }
        return jvm;
    }

    /** The checksums of the side files present, for the manifest's {@code files}. */
    public Map<String, String> sideFileChecksums() throws IOException {
        Map<String, String> out = new TreeMap<>();
        for (String name : SIDE_FILES) {
            Path file = dir.resolve(name);
            if (Files.exists(file)) {
                out.put(name, sha256(Files.readAllBytes(file)));
            }
        }
        return out;
    }

    /** The content of {@value #SEAL} for a manifest of {@code bytes}: {@code sha256sum}'s line. */
    private static String sealOf(byte[] bytes) {
        return sha256(bytes) + "  " + Manifest.FILE + "\n";
    }

    static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e); // every JDK has SHA-256
        }
    }

    public void writeManifest(Manifest m) throws IOException {
        byte[] bytes = GSON.toJson(m).getBytes(StandardCharsets.UTF_8);
        writeAtomically(Manifest.FILE, bytes);
        writeAtomically(SEAL, sealOf(bytes).getBytes(StandardCharsets.UTF_8));
    }

    /** {@code name} with {@code bytes}, private, written beside it and moved into place. */
    private void writeAtomically(String name, byte[] bytes) throws IOException {
        Path file = dir.resolve(name);
        Path tmp = dir.resolve(name + ".tmp");
        Files.deleteIfExists(tmp);
        Files.createFile(tmp, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        Files.write(tmp, bytes, StandardOpenOption.WRITE);
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
        } catch (IOException e) {
            throw RecordingException.cannotRead(file, e);
        } catch (IllegalArgumentException e) {
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
