package dev.reprise.cli.bench;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.Predicate;

import dev.reprise.cli.bench.Summary.Row;

/**
 * How far a geomean of time-in-main ratios moves with other draws of the same runs: a percentile
 * bootstrap. A resample draws, for each workload, as many measured runs of the plain mode and of
 * the mode as there were, with replacement, and takes the geomean of the ratios of their medians;
 * the 2.5th and 97.5th percentiles of {@value #RESAMPLES} resamples bound a 95% interval. The seed
 * is fixed, so one set of runs always gives one interval. It shows the spread of the runs within
 * one bench, not what differs between two benches (the machine's state over a whole run).
 */
final class GeomeanInterval {
    static final int RESAMPLES = 2000;
    private static final long SEED = 0x5EED;

    record Interval(double low, double high) {
    }

    private GeomeanInterval() {
    }

    /**
     * The interval of mode {@code m}'s geomean over the workloads {@code of} accepts whose ratio
     * is defined (as the table's geomean is taken), or null if there are none.
     */
    static Interval of(Summary s, Mode m, Predicate<Workload> of) {
        List<double[][]> workloads = new ArrayList<>();
        for (Row r : s.rows()) {
            Summary.Cell cell = r.cells().get(m);
            if (of.test(r.workload()) && Double.isFinite(cell.timedRatio())) {
                workloads.add(new double[][] {r.cells().get(Mode.PLAIN).timedRuns(), cell.timedRuns()});
            }
        }
        if (workloads.isEmpty()) {
            return null;
        }
        SplittableRandom random = new SplittableRandom(SEED);
        double[] geomeans = new double[RESAMPLES];
        for (int i = 0; i < RESAMPLES; i++) {
            double logSum = 0;
            for (double[][] w : workloads) {
                logSum += Math.log(Summary.median(draw(w[1], random)) / Summary.median(draw(w[0], random)));
            }
            geomeans[i] = Math.exp(logSum / workloads.size());
        }
        Arrays.sort(geomeans);
        return new Interval(geomeans[(int) (0.025 * RESAMPLES)], geomeans[(int) Math.ceil(0.975 * RESAMPLES) - 1]);
    }

    /** As many values as {@code runs} holds, drawn from it with replacement. */
    private static double[] draw(double[] runs, SplittableRandom random) {
        double[] d = new double[runs.length];
        for (int i = 0; i < d.length; i++) {
            d[i] = runs[random.nextInt(runs.length)];
        }
        return d;
    }
}
