package dev.reprise.cli.conformance;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Puts the chosen programs on this machine: {@code mvn -q -f conformance/pom.xml package} limited
 * to their modules, which downloads their jars from Maven Central and compiles their drivers. Runs
 * only when a chosen module has not been built since its pom or its sources last changed.
 */
public final class ProgramBuild {
    private static final long TIMEOUT_MINUTES = 30;

    private ProgramBuild() {
    }

    /** Builds what needs it; returns why the build failed, or {@code null}. */
    public static String ensure(Path suite, List<Program> programs, Path log) throws IOException, InterruptedException {
        List<String> stale = new ArrayList<>();
        for (Program p : programs) {
            if (stale(p.module(suite))) {
                stale.add(p.name());
            }
        }
        if (stale.isEmpty()) {
            return null;
        }
        List<String> cmd = new ArrayList<>(List.of("mvn", "-q", "-B", "-f", suite.resolve("pom.xml").toString(),
                "-pl", String.join(",", stale), "-am", "package"));
        Files.createDirectories(log.getParent());
        Process p;
        try {
            p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        } catch (IOException e) {
            return "cannot run mvn to build the conformance programs: " + e.getMessage();
        }
        p.getOutputStream().close();
        if (!p.waitFor(TIMEOUT_MINUTES, TimeUnit.MINUTES)) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
            return "building the conformance programs took over " + TIMEOUT_MINUTES + " minutes; see " + log;
        }
        if (p.exitValue() != 0) {
            return "building the conformance programs failed (" + String.join(" ", cmd) + "); see " + log;
        }
        // copy-dependencies leaves jars it already has alone, and makes no directory for a module
        // without dependencies: mark each module built now.
        for (String name : stale) {
            Path lib = Files.createDirectories(suite.resolve(name).resolve("target").resolve("lib"));
            Files.setLastModifiedTime(lib, FileTime.fromMillis(System.currentTimeMillis()));
        }
        return null;
    }

    /** Whether the module's {@code target/lib} is missing or older than its pom or any of its sources. */
    private static boolean stale(Path module) throws IOException {
        Path lib = module.resolve("target").resolve("lib");
        if (!Files.isDirectory(lib)) {
            return true;
        }
        long built = Files.getLastModifiedTime(lib).toMillis();
        List<Path> inputs = new ArrayList<>(List.of(module.resolve("pom.xml"), module.getParent().resolve("pom.xml")));
        Path src = module.resolve("src");
        if (Files.isDirectory(src)) {
            try (var s = Files.walk(src)) {
                inputs.addAll(s.toList());
            }
        }
        for (Path in : inputs) {
            if (Files.getLastModifiedTime(in).toMillis() > built) {
                return true;
            }
        }
        return false;
    }
}
