package dev.reprise.core.recording;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;

import dev.reprise.core.log.EventInput;
import dev.reprise.core.log.EventSource;
import dev.reprise.core.log.RecordingCorruptException;

/**
 * The reading half of a {@link Recording}: {@code reprise replay} and {@code inspect} check the
 * manifest's seal and the side files' checksums through it and list the streams; the replaying
 * agent lists the streams and reads how the run ended. A file that cannot be used is a
 * {@link RecordingCorruptException} naming it. The manifest's content (JSON) is the command's to
 * parse: the agent has no JSON reader, and needs none.
 */
public final class RecordingReader extends Recording implements EventSource {
    private RecordingReader(Path dir) {
        super(dir);
    }

    public static RecordingReader of(Path dir) {
        return new RecordingReader(dir);
    }

    /** The stream files, one per recorded thread, sorted by name. */
    public List<Path> streams() {
        Path sdir = dir.resolve(STREAMS);
        List<Path> out = new ArrayList<>();
        if (!Files.isDirectory(sdir)) {
            return out;
        }
        try (DirectoryStream<Path> files = Files.newDirectoryStream(sdir)) {
            for (Path f : files) {
                if (f.getFileName().toString().endsWith(SUFFIX)) {
                    out.add(f);
                }
            }
        } catch (IOException e) {
            throw new RecordingCorruptException(sdir, "cannot list: " + e.getMessage());
        }
        Collections.sort(out);
        return out;
    }

    /** The threads that have a stream ({@link #threadOf}). */
    @Override
    public Set<String> streamNames() {
        Set<String> names = new HashSet<>();
        // A loop, not a stream of lambdas: this runs in every replay's start-up.
        for (Path f : streams()) {
            names.add(threadOf(f));
        }
        return names;
    }

    /** The stream file of {@code stream}, opened at its first read; a missing file is a stream without events. */
    @Override
    public EventInput open(String stream) {
        return new EventInput(streamFile(stream));
    }

    /** {@value #MANIFEST}'s bytes. */
    public byte[] manifestBytes() {
        Path file = dir.resolve(MANIFEST);
        try {
            return Files.readAllBytes(file);
        } catch (NoSuchFileException e) {
            throw new RecordingCorruptException(file, "missing: not a Reprise recording (or recording still running)");
        } catch (IOException e) {
            throw RecordingCorruptException.cannotRead(file, e);
        }
    }

    /** Checks that {@value #SEAL} is the checksum of a manifest of {@code manifest}. */
    public void checkSeal(byte[] manifest) {
        Path seal = dir.resolve(SEAL);
        String text;
        try {
            text = Files.readString(seal, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            throw new RecordingCorruptException(seal, "missing: the checksum of " + MANIFEST);
        } catch (IOException e) {
            throw RecordingCorruptException.cannotRead(seal, e);
        }
        if (!text.equals(sealOf(manifest))) {
            throw new RecordingCorruptException(dir.resolve(MANIFEST), "checksum mismatch: it is not what " + SEAL + " says was written");
        }
    }

    /**
     * Checks every side file present against the checksum the manifest lists ({@code listed}), and
     * that none it lists is missing. A {@code provisional} manifest, written before the agent wrote
     * any, lists none: the side files present are then read unchecked.
     */
    public void checkSideFiles(Map<String, String> listed, boolean provisional) {
        for (String name : SIDE_FILES) {
            Path file = dir.resolve(name);
            String sum = listed.get(name);
            if (!Files.exists(file)) {
                if (sum != null) {
                    throw new RecordingCorruptException(file, "missing: " + MANIFEST + " lists its checksum");
                }
                continue;
            }
            if (sum == null && provisional) {
                continue;
            }
            if (sum == null) {
                throw new RecordingCorruptException(file, "not listed in " + MANIFEST + "'s files, so not checked: refused");
            }
            try {
                if (!sum.equals(sha256(Files.readAllBytes(file)))) {
                    throw new RecordingCorruptException(file, "checksum mismatch: not what " + MANIFEST + " lists");
                }
            } catch (IOException e) {
                throw RecordingCorruptException.cannotRead(file, e);
            }
        }
    }

    /** {@value #JVM}, sorted by name; empty if absent. */
    public Map<String, String> jvm() {
        Properties p = properties(JVM);
        Map<String, String> jvm = new TreeMap<>();
        if (p != null) {
            for (String k : p.stringPropertyNames()) {
                jvm.put(k, p.getProperty(k));
            }
        }
        return jvm;
    }

    /** {@value #OPS}: the operations' names by id; null if absent. */
    public Properties ops() {
        return properties(OPS);
    }

    /** {@value #END}: how the run ended; null if the JVM did not go through its exit. */
    public EndOfRun endOfRun() {
        Properties p = properties(END);
        if (p == null) {
            return null;
        }
        try {
            return EndOfRun.of(p);
        } catch (IllegalArgumentException e) {
            throw new RecordingCorruptException(dir.resolve(END), "unreadable: " + e.getMessage());
        }
    }

    private Properties properties(String name) {
        Path file = dir.resolve(name);
        if (!Files.exists(file)) {
            return null;
        }
        Properties p = new Properties();
        try (InputStream in = Files.newInputStream(file)) {
            p.load(in);
        } catch (IOException e) {
            throw RecordingCorruptException.cannotRead(file, e);
        } catch (IllegalArgumentException e) {
            throw new RecordingCorruptException(file, "unreadable: " + e.getMessage());
        }
        return p;
    }
}
