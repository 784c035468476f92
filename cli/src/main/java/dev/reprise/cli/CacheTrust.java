package dev.reprise.cli;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;

import com.sun.security.auth.module.UnixSystem;

/**
 * Whether the class cache may be used: the agent loads its entries as code, so a cache another
 * user could have written runs their code. The cache directory is created private (0700); an
 * existing one is used only if it, and every directory and file in it, is the user's and
 * writable by no one else. Then only the user (or root) can change it until the agent has read
 * it, since another user can neither write nor rename anything in a directory that is not
 * writable by them. Otherwise the run goes without the cache, with one warning.
 */
final class CacheTrust {
    private static final Set<PosixFilePermission> OTHERS_WRITE =
            Set.of(PosixFilePermission.GROUP_WRITE, PosixFilePermission.OTHERS_WRITE);

    private CacheTrust() {
    }

    /** {@code root}, created private if missing, or null (after a warning) if it may not be used. */
    static Path usable(Path root) {
        try {
            if (Files.notExists(root, LinkOption.NOFOLLOW_LINKS)) {
                createPrivate(root);
            }
            Path real = root.toRealPath();
            long uid = new UnixSystem().getUid();
            String problem = firstProblem(real, uid);
            if (problem == null) {
                return root;
            }
            Main.say("not using the class cache " + root + ": " + problem
                    + "; delete it, or set REPRISE_CACHE_DIR to a directory of your own");
        } catch (FileSystemException e) {
            String why = e instanceof AccessDeniedException ? "permission denied"
                    : e instanceof NoSuchFileException ? "no such file or directory" : e.getReason();
            Main.say("not using the class cache " + root + ": " + e.getFile() + ": " + why);
        } catch (IOException | UnsupportedOperationException e) {
            Main.say("not using the class cache " + root + ": " + e.getMessage());
        }
        return null;
    }

    /** Creates {@code dir} and its missing parents 0700, whatever the umask. */
    private static void createPrivate(Path dir) throws IOException {
        Path parent = dir.toAbsolutePath().getParent();
        if (parent != null && Files.notExists(parent)) {
            createPrivate(parent);
        }
        Files.createDirectory(dir);
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx------"));
    }

    /** What makes the tree at {@code root} unsafe, or null: the first path not {@code uid}'s or writable by others. */
    private static String firstProblem(Path root, long uid) throws IOException {
        String[] problem = {null};
        Files.walkFileTree(root, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) throws IOException {
                return check(dir, attrs);
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                return check(file, attrs);
            }

            /** A file another run renamed or removed as it finished its write was not there to trust: passed over. */
            @Override
            public FileVisitResult visitFileFailed(Path file, IOException e) throws IOException {
                if (e instanceof NoSuchFileException) {
                    return FileVisitResult.CONTINUE;
                }
                throw e;
            }

            private FileVisitResult check(Path p, BasicFileAttributes attrs) throws IOException {
                try {
                    problem[0] = problemOf(p, attrs, uid);
                } catch (NoSuchFileException gone) {
                    return FileVisitResult.CONTINUE;
                }
                return problem[0] == null ? FileVisitResult.CONTINUE : FileVisitResult.TERMINATE;
            }
        });
        return problem[0];
    }

    private static String problemOf(Path p, BasicFileAttributes attrs, long uid) throws IOException {
        if (attrs.isSymbolicLink() || attrs.isOther()) {
            return p + " is not a plain file or directory";
        }
        int owner = (Integer) Files.getAttribute(p, "unix:uid", LinkOption.NOFOLLOW_LINKS);
        if (owner != uid) {
            return p + " belongs to another user (uid " + owner + ")";
        }
        Set<PosixFilePermission> mode = Files.getPosixFilePermissions(p, LinkOption.NOFOLLOW_LINKS);
        if (mode.stream().anyMatch(OTHERS_WRITE::contains)) {
            return p + " is writable by others (" + PosixFilePermissions.toString(mode) + ")";
        }
        return null;
    }
}
