package dev.reprise.cli;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.stream.Stream;

/**
 * The JDK a replay runs: {@code $JAVA_HOME/bin/java}, else {@code java} on the PATH; never an
 * executable a recording names, since a recording may come from someone else. Its version and
 * vendor must be the recorded ones: the replay runs the JDK's own code under the recording, and
 * another build of it does other things. When that one is another version, a JDK of the recorded
 * one installed where JDKs usually are ({@link #installed}) is taken instead: a machine with
 * several JDKs replays a recording of any of them without the user choosing.
 */
final class LocalJdk {
    /**
     * Directories whose subdirectories are JDKs: where Debian, Fedora and the vendors' packages
     * put them, and SDKMAN's and IntelliJ's downloads. {@code REPRISE_JDKS}, a path list, replaces them.
     */
    private static final List<String> JDK_DIRS = List.of("/usr/lib/jvm", "/usr/java", "/opt/java", "~/.sdkman/candidates/java",
            "~/.jdks");

    private final Path java;
    private final Map<String, String> properties;

    private LocalJdk(Path java, Map<String, String> properties) {
        this.java = java;
        this.properties = properties;
    }

    /** The local JDK per {@code env}; {@link IllegalArgumentException} with a usage message if there is none. */
    static LocalJdk find(Map<String, String> env) {
        String home = env.get("JAVA_HOME");
        if (home != null && !home.isEmpty()) {
            Path java = Path.of(home, "bin", "java");
            if (!Files.isExecutable(java)) {
                throw new IllegalArgumentException("JAVA_HOME is " + home + ", which has no bin/java");
            }
            return of(java);
        }
        for (String dir : env.getOrDefault("PATH", "").split(File.pathSeparator)) {
            Path java = Path.of(dir.isEmpty() ? "." : dir, "java");
            if (Files.isRegularFile(java) && Files.isExecutable(java)) {
                return of(java);
            }
        }
        throw new IllegalArgumentException("no java to replay with: set JAVA_HOME or put java on the PATH");
    }

    private static LocalJdk of(Path java) {
        try {
            Path real = java.toRealPath();
            Path release = real.getParent().getParent().resolve("release");
            Map<String, String> props = Files.isRegularFile(release) ? fromRelease(release) : Map.of();
            if (!props.containsKey("java.version")) {
                props = fromJvm(real);
            }
            return new LocalJdk(java, props);
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot tell the version of " + java + ": " + e.getMessage());
        }
    }

    /** The JDK's {@code release} file: JAVA_VERSION and IMPLEMENTOR are java.version and java.vendor. */
    private static Map<String, String> fromRelease(Path release) throws IOException {
        Properties p = new Properties();
        try (InputStream in = Files.newInputStream(release)) {
            p.load(in);
        }
        Map<String, String> out = new HashMap<>();
        putUnquoted(out, "java.version", p.getProperty("JAVA_VERSION"));
        putUnquoted(out, "java.vendor", p.getProperty("IMPLEMENTOR"));
        return out;
    }

    private static void putUnquoted(Map<String, String> out, String key, String value) {
        if (value != null && value.length() >= 2 && value.startsWith("\"") && value.endsWith("\"")) {
            out.put(key, value.substring(1, value.length() - 1));
        }
    }

    /** For a JDK without a release file: its properties as {@code java -XshowSettings:properties -version} lists them. */
    private static Map<String, String> fromJvm(Path java) throws IOException {
        Process p = new ProcessBuilder(java.toString(), "-XshowSettings:properties", "-version").redirectErrorStream(true)
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null"))).start();
        String text = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        Map<String, String> out = new HashMap<>();
        for (String line : text.split("\n")) {
            String[] kv = line.trim().split(" = ", 2);
            if (kv.length == 2 && (kv[0].equals("java.version") || kv[0].equals("java.vendor"))) {
                out.put(kv[0], kv[1]);
            }
        }
        return out;
    }

    Path java() {
        return java;
    }

    /** Version and vendor, as a sentence's words: "Java 25.0.3 (Eclipse Adoptium)". */
    String describe() {
        return "Java " + properties.get("java.version") + " (" + properties.get("java.vendor") + ")";
    }

    /**
     * An installed JDK that can replay a recording made on {@code recorded}: the first, in name
     * order, of the subdirectories of {@link #JDK_DIRS} (or of {@code REPRISE_JDKS}'s directories)
     * whose {@code release} file gives the recorded version and vendor; null if none does.
     */
    static LocalJdk installed(Map<String, String> recorded, Map<String, String> env) {
        for (Path dir : jdkDirs(env)) {
            List<Path> homes;
            try (Stream<Path> list = Files.list(dir)) {
                homes = list.sorted().toList();
            } catch (IOException e) {
                continue; // not there, or not readable: no JDK of it
            }
            for (Path home : homes) {
                Path java = home.resolve("bin").resolve("java");
                Path release = home.resolve("release");
                if (!Files.isExecutable(java) || !Files.isRegularFile(release)) {
                    continue;
                }
                try {
                    LocalJdk jdk = new LocalJdk(java, fromRelease(release));
                    if (jdk.properties.containsKey("java.version") && jdk.mismatch(recorded) == null) {
                        return jdk;
                    }
                } catch (IOException e) {
                    // an unreadable release file: not a JDK to trust with a replay
                }
            }
        }
        return null;
    }

    /** Where {@link #installed} looks, as a sentence's words. */
    static String searched(Map<String, String> env) {
        return String.join(", ", jdkDirs(env).stream().map(Path::toString).toList());
    }

    private static List<Path> jdkDirs(Map<String, String> env) {
        String named = env.get("REPRISE_JDKS");
        List<String> dirs = named != null ? List.of(named.split(File.pathSeparator)) : JDK_DIRS;
        String home = env.getOrDefault("HOME", "");
        return dirs.stream().filter(d -> !d.isEmpty())
                .map(d -> Path.of(d.startsWith("~/") ? home + d.substring(1) : d)).toList();
    }

    /**
     * Why this JDK cannot replay a recording made on {@code recorded} (the manifest's
     * {@code jvm}), or null if it can.
     */
    String mismatch(Map<String, String> recorded) {
        String version = recorded.get("java.version");
        String vendor = recorded.get("java.vendor");
        String localVendor = properties.get("java.vendor");
        if (version.equals(properties.get("java.version")) && (vendor == null || localVendor == null || vendor.equals(localVendor))) {
            return null;
        }
        return "the recording was made with Java " + version + " (" + vendor + "), and " + java + " is Java "
                + properties.get("java.version") + " (" + localVendor + ")";
    }
}
