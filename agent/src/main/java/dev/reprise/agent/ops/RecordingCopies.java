package dev.reprise.agent.ops;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.zip.CRC32;

import dev.reprise.agent.runtime.events.Divergence;
import dev.reprise.core.recording.Recording;

/**
 * Copies, in the recording's directory, of files the program loads code from (a native library,
 * an attached agent's jar) and that a replay, which writes nothing, may not have: often the
 * program's own temporary files; and of file regions it maps into memory, whose reads are no
 * events. A copy is named by its content, {@code <kind>-<crc>-<size>.<ext>},
 * kept once per content, and checked against its name before a replay uses it. A copy that must
 * keep its file's name (a native library, whose code may read its own path) is that name in a
 * directory named by its content, {@code <kind>-<crc>-<size>/<name>}.
 */
public final class RecordingCopies {
    private static volatile Path dir;
    /** Names each partial file apart from the others ({@link #write}). */
    private static final AtomicLong PARTIALS = new AtomicLong();

    private RecordingCopies() {
    }

    /** The recording's directory. */
    static void configure(Path recordingDir) {
        dir = recordingDir;
    }

    public static Path dir() {
        return dir;
    }

    /**
     * Copies {@code name} into the recording, readable by its owner alone as every file of a
     * recording is; returns the copy's name, or "" for a missing file.
     */
    public static String copy(String name, String kind, String ext) throws IOException {
        Path file = Path.of(name);
        if (dir == null || !Files.isRegularFile(file)) {
            return "";
        }
        return copy(ByteBuffer.wrap(Files.readAllBytes(file)), kind, ext);
    }

    /**
     * Copies {@code name} into the recording under its own file name, in a directory named by its
     * content; returns the copy's path in the recording, or "" for a missing file.
     */
    public static String copyNamed(String name, String kind) throws IOException {
        Path file = Path.of(name);
        if (dir == null || !Files.isRegularFile(file)) {
            return "";
        }
        ByteBuffer content = ByteBuffer.wrap(Files.readAllBytes(file));
        String folder = contentName(content, kind, null);
        Files.createDirectories(dir.resolve(folder), PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        String copy = folder + "/" + file.getFileName();
        write(content, dir.resolve(copy));
        return copy;
    }

    /** Copies the bytes {@code content} has remaining (its position is left as it was); returns the copy's name. */
    public static String copy(ByteBuffer content, String kind, String ext) throws IOException {
        Path d = dir;
        if (d == null) {
            return "";
        }
        String copy = contentName(content, kind, ext);
        write(content, d.resolve(copy));
        return copy;
    }

    /** The name a copy of {@code content}'s remaining bytes has (its position is left as it was). */
    private static String contentName(ByteBuffer content, String kind, String ext) {
        CRC32 crc = new CRC32();
        crc.update(content.duplicate());
        return Recording.copyName(kind, crc.getValue(), content.remaining(), ext);
    }

    /**
     * Writes {@code content}'s remaining bytes to {@code target} unless it exists: through a
     * partial file, moved in place. Threads may copy the same content at once (Lucene's threads
     * flushing segments map small files alike): each writes a partial file of its own, and the
     * last move replaces the first's target with the same bytes. With one partial name for all,
     * one thread deleted or moved away another's, whose move then failed in the program's call.
     */
    private static void write(ByteBuffer content, Path target) throws IOException {
        if (!Files.exists(target)) {
            Path partial = target.resolveSibling(target.getFileName() + "." + PARTIALS.incrementAndGet() + ".part");
            Files.deleteIfExists(partial);
            try (FileChannel out = FileChannel.open(partial, Set.of(StandardOpenOption.CREATE_NEW,
                    StandardOpenOption.WRITE), PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")))) {
                ByteBuffer rest = content.duplicate();
                while (rest.hasRemaining()) {
                    out.write(rest);
                }
            }
            Files.move(partial, target, StandardCopyOption.ATOMIC_MOVE);
        }
    }

    /** The name a copy of this file's content has, read in chunks: a mapped region may be large. */
    private static String copyName(Path file, String kind, String ext) throws IOException {
        CRC32 crc = new CRC32();
        long size = 0;
        byte[] chunk = new byte[1 << 16];
        try (InputStream in = Files.newInputStream(file)) {
            for (int n; (n = in.read(chunk)) > 0; size += n) {
                crc.update(chunk, 0, n);
            }
        }
        return Recording.copyName(kind, crc.getValue(), size, ext);
    }

    /**
     * The copy's path, once checked. A copy missing or damaged (its content no longer matches its
     * name) is a damaged recording: status 4. {@code what} says what it is a copy of.
     */
    public static Path checked(String copy, String kind, String ext, String what) {
        Path file = dir.resolve(copy);
        String why;
        try {
            // A named copy's content names its directory, and its name is one file's in it.
            int slash = copy.indexOf('/');
            String named = copy.substring(slash + 1);
            if (slash >= 0 && (named.isEmpty() || named.indexOf('/') >= 0 || named.equals("..") || named.equals("."))) {
                why = "not the name of a copy";
            } else {
                boolean matches = slash < 0 ? copyName(file, kind, ext).equals(copy)
                        : copyName(file, kind, null).equals(copy.substring(0, slash));
                why = matches ? null : "its content does not match its name";
            }
        } catch (IOException e) {
            why = e.toString();
        }
        if (why != null) {
            Divergence.message("recording unreadable: " + file + ", the copy of " + what + ": " + why);
            Runtime.getRuntime().halt(Divergence.EXIT_CORRUPT);
        }
        return file;
    }
}
