package dev.reprise.cli.conformance;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import java.io.Reader;

/** A JDK the suite runs the programs on: its home and the version its {@code release} file states. */
public record Jdk(Path home, String version) {
    /** The JDK at {@code home}; throws {@link IllegalArgumentException} if there is none. */
    public static Jdk at(Path home) {
        Path release = home.resolve("release");
        if (!Files.isExecutable(home.resolve("bin").resolve("java")) || !Files.isRegularFile(release)) {
            throw new IllegalArgumentException("no JDK at " + home + " (no bin/java and release file)");
        }
        Properties p = new Properties();
        try (Reader r = Files.newBufferedReader(release)) {
            p.load(r);
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read " + release + ": " + e.getMessage());
        }
        return new Jdk(home.toAbsolutePath().normalize(), p.getProperty("JAVA_VERSION", "unknown").replace("\"", ""));
    }

    public Path java() {
        return home.resolve("bin").resolve("java");
    }

    /** The feature release, {@code 17} of {@code 17.0.13}. */
    public String feature() {
        int dot = version.indexOf('.');
        return dot < 0 ? version : version.substring(0, dot);
    }
}
