package dev.reprise.core.recording;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * The writing half of a {@link Recording}: the recording agent writes the streams and side files
 * through it, {@code reprise record} the directory itself and the manifest. Every file and
 * directory is its owner's alone (0600, 0700): a recording holds what the program read.
 */
public final class RecordingWriter extends Recording {
    private static final FileAttribute<?> PRIVATE_FILE = PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------"));
    private static final FileAttribute<?> PRIVATE_DIR = PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------"));

    private RecordingWriter(Path dir) {
        super(dir);
    }

    /**
     * {@code reprise record}: a new, private directory for a recording; refuses one that holds
     * anything, and one whose parent is missing (a mistyped path is not created). The message says why.
     */
    public static RecordingWriter create(Path dir) throws IOException {
        try {
            if (Files.isDirectory(dir)) {
                try (Stream<Path> s = Files.list(dir)) {
                    if (s.findAny().isPresent()) {
                        throw new IOException(dir + " exists and is not empty");
                    }
                }
                Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx------"));
            } else {
                Files.createDirectory(dir, PRIVATE_DIR);
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
        return new RecordingWriter(dir);
    }

    /** The recording agent: the directory {@code reprise record} created. */
    public static RecordingWriter of(Path dir) {
        return new RecordingWriter(dir);
    }

    /** Makes the directory the streams go in, if it is not there yet. */
    public void createStreams() throws IOException {
        Path streams = dir.resolve(STREAMS);
        if (!Files.isDirectory(streams)) {
            Files.createDirectory(streams, PRIVATE_DIR);
        }
    }

    /** A new, empty stream file for {@code thread} ({@link #createStreams} first), open for appending. */
    public OutputStream newStream(String thread) throws IOException {
        Path file = streamFile(thread);
        Files.createFile(file, PRIVATE_FILE);
        return Files.newOutputStream(file, StandardOpenOption.WRITE, StandardOpenOption.APPEND);
    }

    /** {@value #JVM}: the recorded JVM's properties. */
    public void writeJvm(Properties jvm) throws IOException {
        writeProperties(JVM, jvm);
    }

    /** {@value #OPS}: the operations' names, by id. */
    public void writeOps(Properties ops) throws IOException {
        writeProperties(OPS, ops);
    }

    /** {@value #END}, at the recorded JVM's exit. */
    public void writeEnd(EndOfRun end) throws IOException {
        writeProperties(END, end.toProperties());
    }

    /**
     * {@value #MANIFEST} with {@code json}, and {@value #SEAL} for it, each written beside its
     * place and moved there: a recorder killed in between leaves the earlier manifest whole.
     */
    public void writeManifest(byte[] json) throws IOException {
        writeAtomically(MANIFEST, json);
        writeAtomically(SEAL, sealOf(json).getBytes(StandardCharsets.UTF_8));
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

    private void writeAtomically(String name, byte[] bytes) throws IOException {
        Path file = dir.resolve(name);
        Path tmp = dir.resolve(name + ".tmp");
        Files.deleteIfExists(tmp);
        Files.createFile(tmp, PRIVATE_FILE);
        Files.write(tmp, bytes, StandardOpenOption.WRITE);
        Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }

    /**
     * In the format {@link Properties#load} reads, sorted, without the date comment
     * {@link Properties#store} writes: formatting that date loads the time-zone names and locale
     * providers, tens of milliseconds of every recording's start-up.
     */
    private void writeProperties(String name, Properties p) throws IOException {
        StringBuilder text = new StringBuilder();
        for (String key : new TreeMap<>(p).keySet().toArray(new String[0])) {
            escape(key, text);
            text.append('=');
            escape(p.getProperty(key), text);
            text.append('\n');
        }
        Path file = dir.resolve(name);
        Files.deleteIfExists(file);
        Files.createFile(file, PRIVATE_FILE);
        try (OutputStream out = Files.newOutputStream(file)) {
            out.write(text.toString().getBytes(StandardCharsets.ISO_8859_1));
        }
    }

    /** Letters, digits and {@code ._-/,} as they are; any other character as a backslash-u escape of its code. */
    private static void escape(String s, StringBuilder out) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '_' || c == '-'
                    || c == '/' || c == ',') {
                out.append(c);
            } else {
                out.append("\\u");
                for (int shift = 12; shift >= 0; shift -= 4) {
                    out.append(Character.forDigit((c >> shift) & 0xF, 16));
                }
            }
        }
    }
}
