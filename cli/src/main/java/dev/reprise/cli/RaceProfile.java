package dev.reprise.cli;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.TreeSet;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipException;
import java.util.zip.ZipFile;

import dev.reprise.cli.recording.RecordingDir;
import dev.reprise.cli.recording.RecordingException;
import dev.reprise.core.recording.Recording;

/**
 * What earlier recordings of a program learned about its races: the plain fields its threads
 * raced on, which every later {@code reprise record} of it orders. Kept in the class cache's
 * directory ({@link CacheTrust} vouches for it), under {@code races/}, one file per program, named
 * by a digest of what identifies it: the main class (or {@code -jar} or {@code -m} and its
 * value) and the contents of its class path, in order (of a directory, its class files; a module
 * path is not read). A program whose classes change is another
 * program, and learns anew. The file lists one field a line, {@code internal/Class.field}, after
 * a header line that counts the recordings that looked and what the last one found; it exists once
 * a recording of the program has looked for races, even if it found none.
 *
 * <p>A learning recording sees only the races its own run makes, and a run of a program with
 * many threads rarely makes them all: so the program's recordings go on looking, each ordering
 * what the ones before found, until one finds nothing new, {@value #LEARNING_RECORDINGS} at most.
 */
public final class RaceProfile {
    /**
     * What the agent's watch looks for, part of the digest: a profile learned by a watch that
     * looked for less (fields alone, without the caches that go along, or without primitive
     * arrays) is another program's, so the program learns again.
     */
    private static final String LEARNS = "plain fields, reference array elements, lazily filled caches along,"
            + " primitive array elements beside atomic writes, identity hashes seen across threads";
    /** The recordings of a program that look for races, at most, unless the user asks for one more. */
    public static final int LEARNING_RECORDINGS = 3;
    private static final String HEADER = "# recordings that looked: ";
    private static final String LAST_FOUND = "; new races the last found: ";

    private final Path file;

    private RaceProfile(Path file) {
        this.file = file;
    }

    /** The profile of the program {@code java} runs, under the trusted cache {@code cache}; its class path read from {@code cwd}. */
    static RaceProfile of(Path cache, JavaCommand java, Path cwd) throws IOException {
        MessageDigest d;
        try {
            d = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e); // every JDK has SHA-256
        }
        List<String> words = java.words();
        String classPath = null;
        for (int i = 1; i < words.size() - 1; i++) {
            String w = words.get(i);
            if (w.equals("-cp") || w.equals("-classpath") || w.equals("--class-path")) {
                classPath = words.get(i + 1);
            }
        }
        List<String> entries = new ArrayList<>();
        String main = java.mainWords();
        if (main.startsWith("-jar ")) {
            entries.add(main.substring(5));
        } else if (classPath != null) {
            entries.addAll(List.of(classPath.split(File.pathSeparator)));
        }
        update(d, LEARNS);
        update(d, main);
        for (String e : entries) {
            update(d, e);
            digest(d, cwd.resolve(e.isEmpty() ? "." : e));
        }
        return new RaceProfile(cache.resolve("races").resolve(HexFormat.of().formatHex(d.digest(), 0, 16) + ".fields"));
    }

    private static void update(MessageDigest d, String s) {
        d.update(s.getBytes(StandardCharsets.UTF_8));
        d.update((byte) 0);
    }

    /**
     * A jar's entries' names, sizes and CRCs from its central directory (its contents, without
     * reading them all at every recording); another file's bytes, and so a file that starts as a
     * zip but does not open as one (a test suite's damaged archives among its classes); a
     * directory's class files' names and digests in name order, without the recordings in it;
     * a wildcard's jars ({@code lib/*}) in name order; nothing for what does not exist. Only a
     * directory's class files: {@code -cp .} is where users run {@code record -o rec}, and its
     * recordings, logs and outputs, digested too, made every recording of such a program another
     * program's, which learned its races anew each time.
     */
    private static void digest(MessageDigest d, Path p) throws IOException {
        if (p.getFileName() != null && p.getFileName().toString().equals("*")) {
            Path dir = p.getParent() == null ? Path.of(".") : p.getParent();
            if (Files.isDirectory(dir)) {
                List<Path> jars;
                try (Stream<Path> s = Files.list(dir)) {
                    jars = s.filter(f -> f.getFileName().toString().toLowerCase(Locale.ROOT).endsWith(".jar"))
                            .sorted().toList();
                }
                for (Path jar : jars) {
                    update(d, jar.getFileName().toString());
                    digest(d, jar);
                }
            }
            return;
        }
        if (Files.isRegularFile(p) && isZip(p) && entries(d, p)) {
            return;
        }
        if (Files.isRegularFile(p)) {
            bytes(d, p);
        } else if (Files.isDirectory(p)) {
            for (Path f : classFiles(p)) {
                update(d, p.relativize(f).toString());
                bytes(d, f);
            }
        }
    }

    /** Digests file {@code f}'s bytes. */
    private static void bytes(MessageDigest d, Path f) throws IOException {
        try (InputStream in = new DigestInputStream(Files.newInputStream(f), d)) {
            in.transferTo(java.io.OutputStream.nullOutputStream());
        }
    }

    /** The class files under {@code dir}, in name order, leaving out the recordings there. */
    private static List<Path> classFiles(Path dir) throws IOException {
        List<Path> found = new ArrayList<>();
        Files.walkFileTree(dir, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path sub, BasicFileAttributes a) {
                return Recording.looksLikeRecording(sub) ? FileVisitResult.SKIP_SUBTREE
                        : FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path f, BasicFileAttributes a) {
                if (a.isRegularFile() && f.getFileName().toString().endsWith(".class")) {
                    found.add(f);
                }
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFileFailed(Path f, IOException e) {
                return FileVisitResult.CONTINUE; // unreadable: the JVM cannot load it either
            }
        });
        found.sort(null);
        return found;
    }

    /** Digests the zip {@code p}'s entries; false, digesting nothing, if it does not open as a zip. */
    private static boolean entries(MessageDigest d, Path p) throws IOException {
        List<String> names = new ArrayList<>();
        try (ZipFile zip = new ZipFile(p.toFile())) {
            for (ZipEntry e : java.util.Collections.list(zip.entries())) {
                names.add(e.getName() + ' ' + e.getSize() + ' ' + e.getCrc());
            }
        } catch (ZipException e) {
            return false;
        }
        for (String n : names) {
            update(d, n);
        }
        return true;
    }

    private static boolean isZip(Path p) throws IOException {
        try (InputStream in = Files.newInputStream(p)) {
            byte[] magic = in.readNBytes(4);
            return magic.length == 4 && magic[0] == 'P' && magic[1] == 'K' && magic[2] == 3 && magic[3] == 4;
        }
    }

    /**
     * Whether the recording in {@code rec} found races it does not order: its replay may diverge,
     * and the program's next recording orders them.
     */
    public static boolean foundUnordered(Path rec) {
        try {
            List<String> found = RacedFields.toOrder(RecordingDir.open(rec));
            return found != null && !found.isEmpty();
        } catch (RecordingException e) {
            return false; // a damaged recording: its replays say why
        }
    }

    Path file() {
        return file;
    }

    /** Whether a recording of the program has looked for its races. */
    boolean learned() {
        return Files.isRegularFile(file);
    }

    /**
     * Whether the program's next recording looks for races: none has yet, or the last one found
     * some new and fewer than {@value #LEARNING_RECORDINGS} have looked.
     */
    boolean stillLearning() throws IOException {
        if (!learned()) {
            return true;
        }
        Header h = Header.of(lines());
        return h.lastFound() > 0 && h.looked() < LEARNING_RECORDINGS;
    }

    /** The profile's first line: the recordings that looked, and the new races the last one found. */
    private record Header(int looked, int lastFound) {
        /** From the profile's lines; a profile without a header (written before it had one) counts as settled. */
        static Header of(List<String> lines) {
            if (!lines.isEmpty() && lines.get(0).startsWith(HEADER)) {
                String h = lines.get(0).substring(HEADER.length());
                int at = h.indexOf(LAST_FOUND);
                if (at > 0) {
                    try {
                        return new Header(Integer.parseInt(h.substring(0, at)), Integer.parseInt(h.substring(at + LAST_FOUND.length())));
                    } catch (NumberFormatException e) {
                        // as a profile without a header
                    }
                }
            }
            return new Header(LEARNING_RECORDINGS, 0);
        }

        @Override
        public String toString() {
            return HEADER + looked + LAST_FOUND + lastFound;
        }
    }

    private List<String> lines() throws IOException {
        return learned() ? Files.readAllLines(file, StandardCharsets.UTF_8) : List.of();
    }

    /** The fields learned, sorted; none if nothing was learned yet. */
    List<String> fields() throws IOException {
        return fields(lines());
    }

    private static List<String> fields(List<String> lines) {
        List<String> out = new ArrayList<>();
        for (String line : lines) {
            if (!line.isBlank() && !line.startsWith("#")) {
                out.add(line.strip());
            }
        }
        return OrderFieldOption.parse(out.stream().map(OrderFieldOption::display).toList());
    }

    /**
     * Adds {@code found}, what a recording that looked found and did not order, to the fields
     * learned, and counts that recording. Written whole to a private temporary file and renamed
     * into place: a concurrent recording of the same program sees the old list or the new.
     */
    void add(List<String> found) throws IOException {
        List<String> before = lines();
        List<String> known = fields(before);
        TreeSet<String> all = new TreeSet<>(known);
        all.addAll(found);
        int looked = learned() ? Header.of(before).looked() : 0;
        List<String> lines = new ArrayList<>();
        lines.add(new Header(Math.min(looked + 1, LEARNING_RECORDINGS), all.size() - known.size()).toString());
        lines.addAll(all);
        Path dir = file.getParent();
        // Private, whatever the umask: CacheTrust refuses a cache with anything others may write.
        if (Files.notExists(dir)) {
            Files.createDirectory(dir);
            Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx------"));
        }
        Path tmp = Files.createTempFile(dir, "profile", ".tmp", PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        Files.write(tmp, lines, StandardCharsets.UTF_8);
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }
}
