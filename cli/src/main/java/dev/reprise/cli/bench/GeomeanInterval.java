package dev.reprise.cli.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.Predicate;

import dev.reprise.cli.bench.Bootstrap.Interval;
import dev.reprise.cli.bench.Summary.Row;

/**
 * How far a geomean of time-in-main ratios moves with other draws of the same runs: a
 * {@link Bootstrap}. A resample draws, for each workload, as many measured runs of the plain mode
 * and of the mode as there were, with replacement, and takes the geomean of the ratios of their
 * medians. It shows the spread of the runs within one bench, not what differs between two benches
 * (the machine's state over a whole run).
 */
final class GeomeanInterval {
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
        return Bootstrap.interval(random -> {
            double logSum = 0;
            for (double[][] w : workloads) {
                logSum += Math.log(Summary.median(draw(w[1], random)) / Summary.median(draw(w[0], random)));
            }
            return Math.exp(logSum / workloads.size());
        });
    }

    /** As many values as {@code runs} holds, drawn from it with replacement. */
    private static double[] draw(double[] runs, SplittableRandom random) {
        int[] drawn = Bootstrap.draw(runs.length, random);
        double[] d = new double[drawn.length];
        for (int i = 0; i < d.length; i++) {
            d[i] = runs[drawn[i]];
        }
        return d;
    }
}
