package dev.reprise.cli;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.jar.JarFile;
import java.util.jar.Manifest;
import java.util.stream.Stream;

/**
 * Where a recorded command's classes come from: the entries of its class path ({@code -cp},
 * {@code -classpath}, {@code --class-path}, a directory's jars for {@code DIR/*}) or the jar of
 * {@code -jar}, with what each jar's manifest's {@code Class-Path} names. A replay runs the program's
 * code again, so it needs them; the recording holds what the program read and wrote, not its
 * classes. {@code reprise pack} copies them into the recording ({@value #PACKED}), and a replay
 * of a packed recording loads them from there, on any machine; an unpacked one loads them where
 * the program ran, and says which are missing rather than letting the JVM fail to find its main
 * class, which would look like a divergence.
 */
final class ProgramClasses {
    /** The recording's directory of packed classes, and its index of what each entry became. */
    static final String PACKED = "classes";
    private static final String INDEX = "index.properties";

    /** One place classes come from: the word of the command it is in, and its part of that word. */
    private record Entry(int word, int part, String value) {
    }

    private final List<String> words;
    private final List<Entry> entries;
    private final Path cwd;

    private ProgramClasses(List<String> words, List<Entry> entries, Path cwd) {
        this.words = words;
        this.entries = entries;
        this.cwd = cwd;
    }

    /** The places of {@code java}'s command, relative ones resolved against {@code cwd}, where it ran, if it is there. */
    static ProgramClasses of(JavaCommand java, String cwd) {
        List<String> words = java.words();
        List<Entry> entries = new ArrayList<>();
        boolean classPath = false;
        for (int i = 1; i < words.size() - 1; i++) {
            String w = words.get(i);
            if (w.equals("-cp") || w.equals("-classpath") || w.equals("--class-path")) {
                String[] parts = words.get(i + 1).split(File.pathSeparator, -1);
                for (int p = 0; p < parts.length; p++) {
                    entries.add(new Entry(i + 1, p, parts[p]));
                }
                classPath = true;
                i++;
            } else if (w.equals("-jar")) {
                entries.clear(); // -jar ignores the class path
                entries.add(new Entry(i + 1, 0, words.get(i + 1)));
                classPath = true;
                break;
            } else if (w.equals("-m") || w.equals("--module") || !w.startsWith("-") && !w.startsWith("@")) {
                break;
            } else if (JavaCommand.takesValue(w)) {
                i++; // --add-opens java.base/java.lang=ALL-UNNAMED: not the main class
            }
        }
        if (!classPath) {
            entries.add(new Entry(-1, 0, ".")); // the launcher's default: the working directory
        }
        // As the replay's JVM resolves them: where the program ran, or, if that is gone, here.
        Path base = Files.isDirectory(Path.of(cwd)) ? Path.of(cwd) : Path.of("").toAbsolutePath();
        return new ProgramClasses(words, entries, base);
    }

    private Path resolve(String value) {
        String v = value.isEmpty() ? "." : value;
        return cwd.resolve(v.endsWith("*") ? v.substring(0, v.length() - 1) : v).normalize();
    }

    /** The places that are not there, as the command names them; empty if all are. */
    List<String> missing() {
        List<String> out = new ArrayList<>();
        for (Entry e : entries) {
            if (!Files.exists(resolve(e.value))) {
                out.add(e.value);
            }
        }
        return out;
    }

    /** Whether {@code recording} holds packed classes. */
    static boolean packed(Path recording) {
        return Files.isRegularFile(recording.resolve(PACKED).resolve(INDEX));
    }

    /**
     * Copies every place into {@code recording}'s {@value #PACKED} directory, private to the
     * user as the recording is, and writes the index last, so that a pack cut short is no pack.
     * Throws {@link IOException} naming a place that is missing or cannot be read.
     */
    void pack(Path recording) throws IOException {
        List<String> missing = missing();
        if (!missing.isEmpty()) {
            throw new IOException(String.join(", ", missing) + " (of the class path the program ran with) not there");
        }
        Path to = recording.resolve(PACKED);
        Properties index = new Properties();
        Files.createDirectories(to);
        for (int n = 0; n < entries.size(); n++) {
            Entry e = entries.get(n);
            Path from = resolve(e.value);
            Path dir = Files.createDirectories(to.resolve(Integer.toString(n)));
            String packed;
            if (Files.isDirectory(from) && e.value.endsWith("*")) {
                try (Stream<Path> s = Files.list(from)) {
                    for (Path jar : s.filter(p -> p.getFileName().toString().toLowerCase().endsWith(".jar")).toList()) {
                        copyFile(jar, dir.resolve(jar.getFileName().toString()));
                        packManifestClassPath(jar, dir);
                    }
                }
                packed = n + "/*";
            } else if (Files.isDirectory(from)) {
                copyTree(from, dir);
                packed = Integer.toString(n);
            } else if (Files.isRegularFile(from)) {
                Path jar = dir.resolve(from.getFileName().toString());
                copyFile(from, jar);
                packManifestClassPath(from, dir);
                packed = n + "/" + from.getFileName();
            } else {
                throw new IOException(e.value + " (of the class path the program ran with) is neither a file nor a directory");
            }
            index.setProperty(Integer.toString(n), packed);
        }
        Path tmp = to.resolve(INDEX + ".tmp");
        try (OutputStream out = Files.newOutputStream(tmp)) {
            index.store(out, "class path entries of the recorded command, as packed here");
        }
        Files.move(tmp, to.resolve(INDEX), StandardCopyOption.ATOMIC_MOVE);
    }

    /**
     * What a jar's manifest's {@code Class-Path} names (the JVM follows it for a jar on the class
     * path as for {@code -jar}: a test runner's jar of nothing but a manifest), copied beside its
     * copy as it lay beside the jar. A file that does not open as a jar names nothing.
     */
    private static void packManifestClassPath(Path jar, Path dir) throws IOException {
        String classPath;
        try (JarFile f = new JarFile(jar.toFile())) {
            Manifest m = f.getManifest();
            classPath = m == null ? null : m.getMainAttributes().getValue("Class-Path");
        } catch (java.util.zip.ZipException e) {
            return;
        }
        if (classPath == null) {
            return;
        }
        for (String ref : classPath.trim().split("\\s+")) {
            if (ref.isEmpty() || ref.contains(":")) {
                continue; // a URL the JVM would fetch, not a file beside the jar
            }
            Path rel = Path.of(ref).normalize();
            Path from = jar.toAbsolutePath().getParent().resolve(rel).normalize();
            if (rel.isAbsolute() || rel.startsWith("..") || !Files.exists(from)) {
                continue; // outside the jar's directory, or missing as it was when recorded
            }
            if (Files.isDirectory(from)) {
                copyTree(from, dir.resolve(rel));
            } else {
                Files.createDirectories(dir.resolve(rel).getParent());
                copyFile(from, dir.resolve(rel));
            }
        }
    }

    private static void copyTree(Path from, Path to) throws IOException {
        try (Stream<Path> s = Files.walk(from)) {
            for (Path p : s.toList()) {
                Path target = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(target);
                } else if (Files.isRegularFile(p)) {
                    copyFile(p, target);
                }
            }
        }
    }

    private static void copyFile(Path from, Path to) throws IOException {
        Files.copy(from, to, StandardCopyOption.REPLACE_EXISTING);
    }

    /**
     * The command's words with each place replaced by its packed copy in {@code recording}, as
     * absolute paths; the words as they are if the recording holds no packed classes.
     */
    List<String> packedWords(Path recording) throws IOException {
        if (!packed(recording)) {
            return words;
        }
        Properties index = new Properties();
        try (InputStream in = Files.newInputStream(recording.resolve(PACKED).resolve(INDEX))) {
            index.load(in);
        }
        Path base = recording.toAbsolutePath().resolve(PACKED);
        List<String> out = new ArrayList<>(words);
        // Per word of the command, its entries as packed: a class path is one word of several.
        Map<Integer, String[]> parts = new HashMap<>();
        for (int n = 0; n < entries.size(); n++) {
            Entry e = entries.get(n);
            String packed = index.getProperty(Integer.toString(n));
            if (packed == null) {
                throw new IOException(recording.resolve(PACKED).resolve(INDEX) + " lacks class path entry " + n);
            }
            String path = base.resolve(packed).toString();
            if (e.word < 0) {
                out.add(1, "-cp"); // the default class path, made explicit
                out.add(2, path);
                return out;
            }
            parts.computeIfAbsent(e.word, w -> words.get(w).split(File.pathSeparator, -1))[e.part] = path;
        }
        parts.forEach((word, packedParts) -> out.set(word, String.join(File.pathSeparator, packedParts)));
        return out;
    }
}
