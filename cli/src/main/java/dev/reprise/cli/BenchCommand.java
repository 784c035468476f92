package dev.reprise.cli;

import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

import dev.reprise.cli.bench.Recorder;
import dev.reprise.cli.bench.BenchRun;
import dev.reprise.cli.bench.Workload;
import dev.reprise.core.config.Order;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code reprise bench}: runs real programs plain, recorded (TO and RTO) and replayed, and reports
 * the overheads. Records and replays through this JVM's own {@code record} and {@code replay}
 * commands, so the numbers are what a user gets, less the launcher's start-up.
 */
@Command(name = "bench", mixinStandardHelpOptions = true,
        description = {"Benchmark recording and replay on real programs (Lucene, H2, Xalan, ZXing, PMD, FOP, Batik, Jython, java.util.concurrent, an HTTP server).",
            "Writes results.md, results.csv, runs.csv and results.svg into the output directory.",
            "Exits with 0 if every replay matched its recording, 3 if any failed or diverged."})
final class BenchCommand implements Callable<Integer>, Recorder {
    @Option(names = "--quick", description = "Few runs, small inputs, a reduced set: checks replays are right, not timings.")
    boolean quick;

    @Option(names = "--out", paramLabel = "DIR", description = "Output directory. Default: bench-results/<date>-<time>")
    Path out;

    @Option(names = "--warm-ups", paramLabel = "N", description = "Warm-up iterations (default: 1 quick, 2 full).")
    Integer warmUps;

    @Option(names = "--runs", paramLabel = "N", description = "Measured iterations (default: 3 quick, 5 full).")
    Integer runs;

    @Parameters(paramLabel = "WORKLOAD", arity = "0..*",
            description = "Workloads to run (default: all; with --quick, the quick set). One of: ${COMPLETION-CANDIDATES}",
            completionCandidates = WorkloadNames.class)
    List<String> names = new ArrayList<>();

    static final class WorkloadNames extends ArrayList<String> {
        WorkloadNames() {
            super(Workload.ALL.stream().map(Workload::name).toList());
        }
    }

    @Override
    public Integer call() throws Exception {
        List<Workload> chosen = new ArrayList<>();
        for (String n : names.isEmpty() ? (quick ? Workload.QUICK : new WorkloadNames()) : names) {
            Workload w = Workload.ALL.stream().filter(x -> x.name().equals(n)).findFirst().orElse(null);
            if (w == null) {
                Main.say("unknown workload '" + n + "' (one of " + String.join(", ", new WorkloadNames()) + ")");
                return ExitCodes.USAGE;
            }
            chosen.add(w);
        }
        int warm = warmUps != null ? warmUps : quick ? 1 : 2;
        int measured = runs != null ? runs : quick ? 3 : 5;
        if (warm < 0 || measured < 1) {
            Main.say("--warm-ups must be 0 or more and --runs 1 or more");
            return ExitCodes.USAGE;
        }
        Path benchDir = JavaCommand.agentJar().getParent().getParent().getParent().resolve("bench").resolve("target");
        String missing = BenchRun.missing(benchDir);
        if (missing != null) {
            Main.say(missing);
            return ExitCodes.USAGE;
        }
        Path dir = out != null ? out
                : Path.of("bench-results", LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")));
        BenchRun suite = new BenchRun(this, benchDir, dir, quick, warm, measured, line -> Main.say("bench: " + line));
        BenchRun.Result r = suite.run(chosen, commandLine(warm, measured, chosen));
        System.out.print(r.markdown());
        Main.say("bench: results in " + dir);
        return r.allMatched() ? 0 : ExitCodes.DIVERGED;
    }

    private String commandLine(int warm, int measured, List<Workload> chosen) {
        StringBuilder b = new StringBuilder("reprise bench");
        if (quick) {
            b.append(" --quick");
        }
        if (warmUps != null) {
            b.append(" --warm-ups ").append(warm);
        }
        if (runs != null) {
            b.append(" --runs ").append(measured);
        }
        if (!names.isEmpty()) {
            chosen.forEach(w -> b.append(' ').append(w.name()));
        }
        return b.toString();
    }

    @Override
    public int record(Path dir, Order order, List<String> orderedFields, List<String> command, ProgramIo io) throws Exception {
        RecordCommand c = new RecordCommand();
        c.output = dir;
        c.order = order;
        c.orderFields = new ArrayList<>(orderedFields);
        c.command = command;
        c.io = io;
        return c.call();
    }

    @Override
    public int replay(Path dir, ProgramIo io) throws Exception {
        ReplayCommand c = new ReplayCommand();
        c.dir = dir;
        c.io = io;
        return c.call();
    }
}
