package dev.reprise.cli.bench;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.function.ToDoubleFunction;

/**
 * Per workload and mode: medians of the measured runs and their ratios to the plain run. A mode
 * with any failing run, warm-ups included, gets no timing: a wrong replay is not a fast one.
 */
final class Summary {
    /** One workload in one mode. Ratios are {@code NaN} where they are not defined or not earned. */
    /** {@code timedRuns}: the measured runs' times in main, sorted ({@link GeomeanInterval} resamples them). */
    record Cell(Mode mode, int runs, int failures, String firstFailure, double medianSeconds, double timeRatio,
                double[] timedRuns, double medianTimedSeconds, double timedRatio, double medianRssMib, double rssRatio,
                double logBytes, double logBytesPerSecond) {
        boolean ok() {
            return failures == 0;
        }

        String verdict() {
            return ok() ? "ok " + runs + "/" + runs : "FAILED " + failures + "/" + runs;
        }
    }

    record Row(Workload workload, Map<Mode, Cell> cells) {
    }

    private final List<Row> rows = new ArrayList<>();

    void add(Workload w, List<Run> runs) {
        Map<Mode, Cell> cells = new EnumMap<>(Mode.class);
        Cell plain = cell(Mode.PLAIN, runs, null);
        for (Mode m : Mode.values()) {
            cells.put(m, m == Mode.PLAIN ? plain : cell(m, runs, plain));
        }
        rows.add(new Row(w, cells));
    }

    /** Mode {@code m}'s cell, its ratios taken to {@code plain}'s medians (to its own when {@code plain} is null). */
    private static Cell cell(Mode m, List<Run> runs, Cell plain) {
        List<Run> all = runs.stream().filter(r -> r.mode() == m).toList();
        List<Run> measured = all.stream().filter(r -> !r.warmUp()).toList();
        List<Run> failed = all.stream().filter(r -> !r.ok()).toList();
        double seconds = median(measured, Run::seconds);
        double[] timedRuns = measured.stream().mapToDouble(Run::timedSeconds).toArray();
        double timed = median(timedRuns);
        double rss = median(measured, r -> r.peakRssKb() / 1024.0);
        double log = m.record() ? median(measured, r -> r.logBytes()) : Double.NaN;
        double rate = m.record() ? median(measured, r -> r.logBytes() / r.seconds()) : Double.NaN;
        boolean earned = failed.isEmpty() && (plain == null || plain.ok());
        return new Cell(m, all.size(), failed.size(), failed.isEmpty() ? null : failed.get(0).failure(),
                seconds, ratio(earned, seconds, plain == null ? seconds : plain.medianSeconds()),
                timedRuns, timed, ratio(earned, timed, plain == null ? timed : plain.medianTimedSeconds()),
                rss, ratio(earned, rss, plain == null ? rss : plain.medianRssMib()), log, rate);
    }

    private static double ratio(boolean earned, double value, double plain) {
        return earned && plain > 0 ? value / plain : Double.NaN;
    }

    List<Row> rows() {
        return rows;
    }

    /** Geometric mean over the workloads where the value is defined, and how many those are. */
    record Geomean(double value, int count) {
    }

    /** Mode {@code m}'s geomean of {@code value} over the workloads {@code of} accepts. */
    Geomean geomean(Mode m, ToDoubleFunction<Cell> value, Predicate<Workload> of) {
        double logSum = 0;
        int n = 0;
        for (Row r : rows) {
            if (!of.test(r.workload())) {
                continue;
            }
            double v = value.applyAsDouble(r.cells().get(m));
            if (v > 0 && Double.isFinite(v)) {
                logSum += Math.log(v);
                n++;
            }
        }
        return new Geomean(n == 0 ? Double.NaN : Math.exp(logSum / n), n);
    }

    /** How many workloads {@code of} accepts. */
    int count(Predicate<Workload> of) {
        return (int) rows.stream().filter(r -> of.test(r.workload())).count();
    }

    /** Whether some workload is not of a kind DaCapo has, so that the geomean over those that are differs. */
    boolean mixesKinds() {
        return count(Workload::dacapoKind) < rows.size();
    }

    boolean allMatched() {
        return rows.stream().allMatch(r -> r.cells().values().stream().allMatch(Cell::ok));
    }

    static double median(List<Run> runs, ToDoubleFunction<Run> f) {
        return median(runs.stream().mapToDouble(f).toArray());
    }

    /** The median of {@code values}, which it sorts; NaN for none. */
    static double median(double[] values) {
        if (values.length == 0) {
            return Double.NaN;
        }
        Arrays.sort(values);
        int n = values.length;
        return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
    }
}
