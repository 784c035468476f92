package dev.reprise.cli.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Stream;

/** A bench run: the chosen workloads, one after the other, then the reports. */
public final class BenchRun {
    private final Recorder recorder;
    private final Path benchDir;
    private final Path out;
    private final boolean quick;
    private final int warmUps;
    private final int runs;
    private final Consumer<String> progress;

    public BenchRun(Recorder recorder, Path benchDir, Path out, boolean quick, int warmUps, int runs, Consumer<String> progress) {
        this.recorder = recorder;
        this.benchDir = benchDir;
        this.out = out;
        this.quick = quick;
        this.warmUps = warmUps;
        this.runs = runs;
        this.progress = progress;
    }

    /** Runs the workloads and writes the reports; returns the Markdown report and whether every run matched. */
    public Result run(List<Workload> workloads, String commandLine) throws Exception {
        Path work = Files.createDirectories(out.resolve("work"));
        Harness h = new Harness(recorder, javaPrefix(), work, quick, warmUps, runs, progress);
        Summary s = new Summary();
        List<Run> all = new ArrayList<>();
        String md = "";
        for (Workload w : workloads) {
            List<Run> r = h.run(w);
            all.addAll(r);
            s.add(w, r);
            // Rewritten after every workload: a long run stopped early keeps the workloads it finished.
            md = Reports.markdown(Environment.header(commandLine, quick, warmUps, runs, workloads), s);
            Reports.write(out, md, s, all);
        }
        deleteEmptyDirs(work);
        return new Result(md, s.allMatched());
    }

    public record Result(String markdown, boolean allMatched) {
    }

    /** {@code java -Djava.awt.headless=true -cp reprise-bench.jar:lib/...}: the class path listed in a fixed order. */
    private List<String> javaPrefix() throws IOException {
        StringBuilder cp = new StringBuilder(benchDir.resolve("reprise-bench.jar").toString());
        try (Stream<Path> libs = Files.list(benchDir.resolve("lib"))) {
            libs.filter(p -> p.toString().endsWith(".jar")).sorted().forEach(p -> cp.append(':').append(p));
        }
        return List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Djava.awt.headless=true", "-cp", cp.toString());
    }

    /** Checks that the workloads are built; returns why not, or {@code null}. */
    public static String missing(Path benchDir) {
        for (Path p : List.of(benchDir.resolve("reprise-bench.jar"), benchDir.resolve("lib"))) {
            if (!Files.exists(p)) {
                return "the bench workloads are not built (no " + p + "); run: mvn -q -B -DskipTests package";
            }
        }
        return null;
    }

    private static void deleteEmptyDirs(Path dir) throws IOException {
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : s.filter(Files::isDirectory).sorted(Comparator.reverseOrder()).toList()) {
                try (Stream<Path> children = Files.list(p)) {
                    if (children.findAny().isEmpty()) {
                        Files.delete(p);
                    }
                }
            }
        }
    }
}
