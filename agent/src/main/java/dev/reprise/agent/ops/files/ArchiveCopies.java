package dev.reprise.agent.ops.files;

import java.io.File;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import dev.reprise.agent.ops.RecordingCopies;
import dev.reprise.agent.runtime.events.Digest;
import dev.reprise.agent.runtime.events.Session;

/**
 * Archives a replay would not find, opened as a {@code ZipFile}: those the program wrote while
 * recorded (Mockito's inline mock maker writes its bootstrap classes to a temporary jar, opens it,
 * and appends it to the boot class path), and those outside the class path, which are the
 * program's input (a data archive, a jar a script runtime reads itself). Archives are read live
 * ({@link ArchiveOps}), and a replay, which writes no file, runs without the program's inputs.
 * Recording keeps a copy of each, named by its path and content
 * ({@code archive-<path digest>-<crc>-<size>.zip}); a replay opens the copy in the file's place.
 * The JDK's files and the class path's jars are not copied: a replay runs the program's code
 * from them. Nothing is logged: the choice depends on the path alone, the same for any thread at
 * any moment. One copy per path: a program that rewrites an archive under one name and opens
 * each version replays the first copy it finds.
 */
public final class ArchiveCopies {
    private static final String EXT = "zip";
    /** Taken as the agent starts: a file modified since was written while the program ran. */
    private static final long STARTED = System.currentTimeMillis();
    /** The class path's entries, as absolute paths. */
    private static final Set<Path> CLASS_PATH = classPath();
    /** Recording: the paths copied so far, each once (a replay opens the first copy it finds). */
    private static final Set<String> COPIED = ConcurrentHashMap.newKeySet();
    /** Replay: the copies in the recording, by path digest; read once. */
    private static volatile Map<String, String> copies;

    private ArchiveCopies() {
    }

    /**
     * The file to open for the archive {@code path} a ZIP source opens: a copy on replay, if the
     * recording has one.
     */
    static String opened(String path) {
        return copied(path, true);
    }

    /**
     * The file a class loader opens for the jar {@code path}: a copy on replay if the program
     * wrote the jar while recorded (a runtime that extracts a jar from its own to load classes
     * from it). Other jars a loader opens hold the program's code, which a replay runs from them.
     */
    static String loaded(String path) {
        return copied(path, false);
    }

    private static String copied(String path, boolean inputs) {
        Path dir = RecordingCopies.dir();
        if (dir == null) {
            return path;
        }
        String kind = "archive-" + String.format("%08x", Digest.of(path));
        if (Session.current().replaying()) {
            String copy = copies(dir).get(kind);
            return copy == null ? path : RecordingCopies.checked(copy, kind, EXT, "an archive the program opened").toString();
        }
        try {
            File file = new File(path);
            boolean input = inputs && file.isFile() && !CLASS_PATH.contains(file.toPath().toAbsolutePath().normalize());
            if ((input || file.lastModified() >= STARTED) && COPIED.add(path)) {
                RecordingCopies.copy(path, kind, EXT);
            }
        } catch (IOException | InvalidPathException e) {
            // No copy: the replay opens the path, as it did before copies existed.
        }
        return path;
    }

    private static Set<Path> classPath() {
        Set<Path> entries = new HashSet<>();
        for (String entry : System.getProperty("java.class.path", "").split(File.pathSeparator)) {
            try {
                entries.add(Path.of(entry).toAbsolutePath().normalize());
            } catch (InvalidPathException e) {
                // Not a path the JVM could open either.
            }
        }
        return entries;
    }

    private static Map<String, String> copies(Path dir) {
        Map<String, String> found = copies;
        if (found == null) {
            found = new HashMap<>();
            try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, "archive-*." + EXT)) {
                for (Path f : files) {
                    String name = f.getFileName().toString();
                    found.putIfAbsent(name.substring(0, name.indexOf('-', "archive-".length())), name);
                }
            } catch (IOException e) {
                // No copies to be found: archives open by their paths.
            }
            copies = found;
        }
        return found;
    }
}
