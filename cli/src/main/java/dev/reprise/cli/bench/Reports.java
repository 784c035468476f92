package dev.reprise.cli.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.function.Predicate;
import java.util.function.ToDoubleFunction;

import dev.reprise.cli.bench.Summary.Cell;
import dev.reprise.cli.bench.Summary.Geomean;
import dev.reprise.cli.bench.Summary.Row;

/**
 * Writes the results: {@code results.md} and {@code results.svg} for people, {@code results.csv}
 * (per workload and mode) and {@code runs.csv} (every run) for scripts.
 */
final class Reports {
    static final String MARKDOWN = "results.md";
    static final String CSV = "results.csv";
    static final String RUNS_CSV = "runs.csv";
    private static final List<Mode> OVERHEAD = List.of(Mode.RECORD_TO, Mode.RECORD_RTO, Mode.REPLAY_TO, Mode.REPLAY_RTO);

    private Reports() {
    }

    static void write(Path dir, String markdown, Summary s, List<Run> runs) throws IOException {
        Files.writeString(dir.resolve(MARKDOWN), markdown);
        Files.writeString(dir.resolve(CSV), csv(s));
        Files.writeString(dir.resolve(RUNS_CSV), runsCsv(runs));
        Files.writeString(dir.resolve(SvgChart.FILE), SvgChart.render(s));
    }

    static String markdown(String header, Summary s) {
        StringBuilder b = new StringBuilder(header).append('\n');
        b.append("### Time in main (the span DaCapo's harness times): median, ratio to plain\n\n");
        b.append("| workload | plain | record TO | record RTO | replay TO | replay RTO | replay verdict |\n");
        b.append("|---|---|---|---|---|---|---|\n");
        ratios(b, s, Cell::medianTimedSeconds, Cell::timedRatio, true);
        intervals(b, s);
        b.append("### Process wall time (JVM start to exit, Reprise's start-up included): median, ratio to plain\n\n");
        b.append("| workload | plain | record TO | record RTO | replay TO | replay RTO |\n");
        b.append("|---|---|---|---|---|---|\n");
        ratios(b, s, Cell::medianSeconds, Cell::timeRatio, false);

        b.append("### Peak RSS: median, ratio to plain; recording size and rate (median)\n\n");
        b.append("| workload | plain RSS | record TO | record RTO | replay TO | replay RTO | log TO | log RTO | log TO/s | log RTO/s |\n");
        b.append("|---|---|---|---|---|---|---|---|---|---|\n");
        for (Row r : s.rows()) {
            b.append("| ").append(r.workload().name()).append(" | ").append(num(r.cells().get(Mode.PLAIN).medianRssMib(), "%.0f MiB"));
            for (Mode m : OVERHEAD) {
                b.append(" | ").append(num(r.cells().get(m).rssRatio(), "%.2fx"));
            }
            for (Mode m : List.of(Mode.RECORD_TO, Mode.RECORD_RTO)) {
                b.append(" | ").append(bytes(r.cells().get(m).logBytes()));
            }
            for (Mode m : List.of(Mode.RECORD_TO, Mode.RECORD_RTO)) {
                b.append(" | ").append(bytes(r.cells().get(m).logBytesPerSecond())).append("/s");
            }
            b.append(" |\n");
        }
        geomeans(b, s, Cell::rssRatio, " | | | | |\n");

        StringBuilder failures = new StringBuilder();
        for (Row r : s.rows()) {
            for (Cell c : r.cells().values()) {
                if (!c.ok()) {
                    failures.append("- ").append(r.workload().name()).append(", ").append(c.mode().label()).append(", ")
                            .append(c.failures()).append(" of ").append(c.runs()).append(" runs: ")
                            .append(c.firstFailure()).append('\n');
                }
            }
        }
        if (!failures.isEmpty()) {
            b.append("\n### Failures (first reason per workload and mode)\n\n").append(failures);
        }
        return b.toString();
    }

    /** A table's rows of time ratios per workload, then their geomeans. */
    private static void ratios(StringBuilder b, Summary s, ToDoubleFunction<Cell> seconds, ToDoubleFunction<Cell> ratio,
                               boolean verdicts) {
        for (Row r : s.rows()) {
            b.append("| ").append(r.workload().name()).append(" | ")
                    .append(num(seconds.applyAsDouble(r.cells().get(Mode.PLAIN)), "%.2f s"));
            for (Mode m : OVERHEAD) {
                Cell c = r.cells().get(m);
                b.append(" | ").append(c.ok() ? num(ratio.applyAsDouble(c), "%.2fx") : "FAILED");
            }
            b.append(verdicts ? " | " + verdict(r) + " |\n" : " |\n");
        }
        geomeans(b, s, ratio, verdicts ? " | |\n" : " |\n");
        b.append('\n');
    }

    /**
     * The geomean rows of a table: over all workloads, then, if some are not of a kind DaCapo has
     * ({@link Workload#dacapoKind}), over those that are, the set BENCHMARKS.md's targets are set for.
     */
    private static void geomeans(StringBuilder b, Summary s, ToDoubleFunction<Cell> ratio, String rowEnd) {
        geomeanRow(b, "geomean", s, ratio, w -> true, rowEnd);
        if (s.mixesKinds()) {
            geomeanRow(b, "geomean, DaCapo kinds", s, ratio, Workload::dacapoKind, rowEnd);
        }
    }

    private static void geomeanRow(StringBuilder b, String label, Summary s, ToDoubleFunction<Cell> ratio,
                                   Predicate<Workload> of, String rowEnd) {
        b.append("| **").append(label).append("** | ");
        for (Mode m : OVERHEAD) {
            b.append(" | ").append(geomean(s.geomean(m, ratio, of), s.count(of)));
        }
        b.append(rowEnd);
    }

    /**
     * The 95% interval of each mode's time-in-main geomean over the workloads the targets compare
     * with ({@link GeomeanInterval}): where it straddles a target, this bench has not decided it.
     */
    private static void intervals(StringBuilder b, Summary s) {
        Predicate<Workload> of = s.mixesKinds() ? Workload::dacapoKind : w -> true;
        b.append("95% interval of the geomean").append(s.mixesKinds() ? " over the DaCapo kinds" : "")
                .append(" (bootstrap of each workload's measured runs, ").append(Bootstrap.RESAMPLES)
                .append(" resamples):");
        String sep = " ";
        for (Mode m : OVERHEAD) {
            Bootstrap.Interval i = GeomeanInterval.of(s, m, of);
            b.append(sep).append(m.label()).append(' ')
                    .append(i == null ? "-" : num(i.low(), "%.3fx") + "-" + num(i.high(), "%.3fx"));
            sep = ", ";
        }
        b.append(".\n\n");
    }

    /** "ok 4/4" when both replays matched every time, else each replay mode's count of failures. */
    private static String verdict(Row r) {
        Cell to = r.cells().get(Mode.REPLAY_TO);
        Cell rto = r.cells().get(Mode.REPLAY_RTO);
        if (to.ok() && rto.ok()) {
            return "ok " + to.runs() + "/" + to.runs();
        }
        return "DIVERGED: TO " + to.verdict() + ", RTO " + rto.verdict();
    }

    private static String geomean(Geomean g, int of) {
        if (g.count() == 0) {
            return "-";
        }
        return num(g.value(), "**%.2fx**") + (g.count() < of ? " (" + g.count() + " of " + of + ")" : "");
    }

    static String csv(Summary s) {
        StringBuilder b = new StringBuilder("workload,mode,runs,failures,median_wall_s,wall_ratio,median_main_s,main_ratio,"
                + "median_peak_rss_mib,"
                + "rss_ratio,log_bytes,log_bytes_per_s,verdict,first_failure\n");
        for (Row r : s.rows()) {
            for (Cell c : r.cells().values()) {
                b.append(String.join(",", r.workload().name(), c.mode().label(), Integer.toString(c.runs()),
                        Integer.toString(c.failures()), num(c.medianSeconds(), "%.3f"), num(c.timeRatio(), "%.3f"),
                        num(c.medianTimedSeconds(), "%.3f"), num(c.timedRatio(), "%.3f"),
                        num(c.medianRssMib(), "%.1f"), num(c.rssRatio(), "%.3f"), num(c.logBytes(), "%.0f"),
                        num(c.logBytesPerSecond(), "%.0f"), c.verdict(), quote(c.firstFailure()))).append('\n');
            }
        }
        return b.toString();
    }

    static String runsCsv(List<Run> runs) {
        StringBuilder b = new StringBuilder("workload,mode,iteration,warm_up,wall_s,main_s,peak_rss_kib,exit_status,stdout_sha256,"
                + "log_bytes,failure\n");
        for (Run r : runs) {
            b.append(String.join(",", r.workload(), r.mode().label(), Integer.toString(r.iteration()),
                    Boolean.toString(r.warmUp()), String.format(Locale.ROOT, "%.3f", r.seconds()),
                    r.timedNanos() < 0 ? "" : String.format(Locale.ROOT, "%.3f", r.timedSeconds()),
                    Long.toString(r.peakRssKb()), Integer.toString(r.status()), r.stdoutSha(),
                    Long.toString(r.logBytes()), quote(r.failure()))).append('\n');
        }
        return b.toString();
    }

    private static String quote(String s) {
        return s == null ? "" : "\"" + s.replace("\"", "\"\"") + "\"";
    }

    static String num(double v, String format) {
        return Double.isFinite(v) ? String.format(Locale.ROOT, format, v) : "-";
    }

    static String bytes(double v) {
        if (!Double.isFinite(v)) {
            return "-";
        }
        String[] units = {"B", "KiB", "MiB", "GiB"};
        int u = 0;
        while (v >= 1024 && u < units.length - 1) {
            v /= 1024;
            u++;
        }
        return String.format(Locale.ROOT, u == 0 ? "%.0f %s" : "%.1f %s", v, units[u]);
    }
}
