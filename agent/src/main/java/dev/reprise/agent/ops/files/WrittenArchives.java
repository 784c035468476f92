package dev.reprise.agent.ops.files;

import java.io.File;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

import dev.reprise.agent.ops.RecordingCopies;
import dev.reprise.agent.runtime.Digest;
import dev.reprise.agent.runtime.Session;

/**
 * Archives the program wrote while recorded and then opened as a {@code ZipFile} (Mockito's inline
 * mock maker writes its bootstrap classes to a temporary jar, opens it, and appends it to the boot
 * class path). Archives are read live ({@link ArchiveOps}), and a replay, which writes no file,
 * has none of these. Recording keeps a copy of each archive whose file was modified after the
 * recording started, named by its path and content
 * ({@code archive-<path digest>-<crc>-<size>.zip}); a replay opens the copy in the file's place.
 * Nothing is logged: the choice depends on the path alone, the same for any thread at any moment.
 * One copy per path: a program that rewrites an archive under one name and opens each version
 * replays the first copy it finds.
 */
public final class WrittenArchives {
    private static final String EXT = "zip";
    /** Taken as the agent starts: a file modified since was written while the program ran. */
    private static final long STARTED = System.currentTimeMillis();
    /** Replay: the copies in the recording, by path digest; read once. */
    private static volatile Map<String, String> copies;

    private WrittenArchives() {
    }

    /** The file to open for the archive {@code path}: a copy on replay, if the recording has one. */
    static String opened(String path) {
        Path dir = RecordingCopies.dir();
        if (dir == null) {
            return path;
        }
        String kind = "archive-" + String.format("%08x", Digest.of(path));
        if (Session.current().replaying()) {
            String copy = copies(dir).get(kind);
            return copy == null ? path : RecordingCopies.checked(copy, kind, EXT, "an archive the program wrote").toString();
        }
        try {
            if (new File(path).lastModified() >= STARTED) {
                RecordingCopies.copy(path, kind, EXT);
            }
        } catch (IOException e) {
            // No copy: the replay opens the path, as it did before copies existed.
        }
        return path;
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
