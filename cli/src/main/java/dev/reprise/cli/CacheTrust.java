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
import java.util.Map;
import java.util.Set;

import com.sun.security.auth.module.UnixSystem;

/**
 * Whether the class cache may be used: the agent loads its entries as code, so a cache another
 * user could have written runs their code. The cache directory is created private (0700); an
 * existing one is used only if it is the user's and writable by no one else, and so is every
 * directory and file of the part a run reads (its agent build's entries, its race profile).
 * Then only the user (or root) can change that part until the agent has read it, since another
 * user can neither write nor rename anything in a directory that is not writable by them.
 * Otherwise the run goes without the cache, with one warning. The rest of the cache (other agent
 * builds, other programs' profiles) is never read by the run, so it is not walked: the check
 * costs what the run reads, not what the cache has gathered.
 */
final class CacheTrust {
    private static final Set<PosixFilePermission> OTHERS_WRITE =
            Set.of(PosixFilePermission.GROUP_WRITE, PosixFilePermission.OTHERS_WRITE);

    private CacheTrust() {
    }

    /**
     * {@code root}, created private if missing, or null (after a warning) if the directory itself
     * may not be used; what lies in it is checked by {@link #trusts} as a run comes to read it.
     */
    static Path usable(Path root) {
        try {
            if (Files.notExists(root, LinkOption.NOFOLLOW_LINKS)) {
                createPrivate(root);
            }
            Path real = root.toRealPath();
            String problem = problemOf(real, Files.readAttributes(real, BasicFileAttributes.class), uid());
            if (problem == null) {
                return root;
            }
            refuse(root, problem);
        } catch (IOException | UnsupportedOperationException e) {
            refuse(root, e);
        }
        return null;
    }

    /**
     * Whether the run may read {@code part} of the cache {@code root} (which {@link #usable}
     * passed): each directory between them, and {@code part} with all it holds, if they exist.
     * Says why not, once, naming the cache.
     */
    static boolean trusts(Path root, Path part) {
        try {
            Path real = root.toRealPath();
            long uid = uid();
            Path relative = root.relativize(part);
            Path dir = real;
            for (int i = 0; i < relative.getNameCount() - 1; i++) {
                dir = dir.resolve(relative.getName(i));
                if (Files.notExists(dir, LinkOption.NOFOLLOW_LINKS)) {
                    return true; // the agent makes the rest, private
                }
                String problem = problemOf(dir, Files.readAttributes(dir, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS), uid);
                if (problem != null) {
                    refuse(root, problem);
                    return false;
                }
            }
            Path whole = real.resolve(relative);
            String problem = Files.exists(whole, LinkOption.NOFOLLOW_LINKS) ? firstProblem(whole, uid) : null;
            if (problem == null) {
                return true;
            }
            refuse(root, problem);
        } catch (IOException | UnsupportedOperationException e) {
            refuse(root, e);
        }
        return false;
    }

    private static void refuse(Path root, String problem) {
        Main.say("not using the class cache " + root + ": " + problem
                + "; delete it, or set REPRISE_CACHE_DIR to a directory of your own");
    }

    private static void refuse(Path root, Exception e) {
        if (e instanceof FileSystemException f) {
            String why = f instanceof AccessDeniedException ? "permission denied"
                    : f instanceof NoSuchFileException ? "no such file or directory" : f.getReason();
            Main.say("not using the class cache " + root + ": " + f.getFile() + ": " + why);
        } else {
            Main.say("not using the class cache " + root + ": " + e.getMessage());
        }
    }

    private static long uid() {
        return new UnixSystem().getUid();
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
        Map<String, Object> unix = Files.readAttributes(p, "unix:uid,permissions", LinkOption.NOFOLLOW_LINKS); // one stat
        int owner = (Integer) unix.get("uid");
        if (owner != uid) {
            return p + " belongs to another user (uid " + owner + ")";
        }
        @SuppressWarnings("unchecked")
        Set<PosixFilePermission> mode = (Set<PosixFilePermission>) unix.get("permissions");
        if (mode.stream().anyMatch(OTHERS_WRITE::contains)) {
            return p + " is writable by others (" + PosixFilePermissions.toString(mode) + ")";
        }
        return null;
    }
}
