package dev.reprise.cli.conformance;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * A program of the conformance suite, as its catalogue line names it: its module directory under
 * {@code conformance/}, its kind, whether the quick subset runs it, and what follows
 * {@code java -cp CLASSPATH} ({@code ${lib}} standing for the module's {@code target/lib}).
 */
public record Program(String name, String kind, boolean quick, List<String> words) {
    /** The module's directory. */
    public Path module(Path suite) {
        return suite.resolve(name);
    }

    /** {@code JAVA -cp CLASSPATH WORDS...}: the driver's classes, if any, then the jars in name order. */
    public List<String> command(Path suite, Path java) throws IOException {
        Path target = module(suite).resolve("target");
        Path lib = target.resolve("lib");
        StringBuilder cp = new StringBuilder();
        if (Files.isDirectory(target.resolve("classes"))) {
            cp.append(target.resolve("classes"));
        }
        if (Files.isDirectory(lib)) {
            try (Stream<Path> jars = Files.list(lib)) {
                jars.filter(p -> p.toString().endsWith(".jar")).sorted()
                        .forEach(p -> cp.append(cp.isEmpty() ? "" : ":").append(p));
            }
        }
        List<String> out = new ArrayList<>(List.of(java.toString(), "-cp", cp.toString()));
        words.forEach(w -> out.add(w.replace("${lib}", lib.toString())));
        return out;
    }

    /** Fills a fresh working directory with copies of the module's fixed inputs. */
    public void copyInputs(Path suite, Path workDir) throws IOException {
        dev.reprise.cli.bench.Trees.copyContents(module(suite).resolve("input"), workDir);
        dev.reprise.cli.bench.Trees.copyContents(module(suite).resolve("target").resolve("input"), workDir);
    }
}
