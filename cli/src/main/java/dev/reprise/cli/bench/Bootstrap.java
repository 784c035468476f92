package dev.reprise.cli.bench;

import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.function.ToDoubleFunction;

/**
 * A percentile bootstrap: a statistic taken over {@value #RESAMPLES} resamples of the runs, whose
 * 2.5th and 97.5th percentiles bound a 95% interval. The seed is fixed, so one set of runs always
 * gives one interval. {@link GeomeanInterval} and {@link Comparison} resample differently (each
 * mode's runs apart, or whole rounds) and share the rest here.
 */
final class Bootstrap {
    static final int RESAMPLES = 2000;
    private static final long SEED = 0x5EED;

    record Interval(double low, double high) {
    }

    private Bootstrap() {
    }

    /** The 95% interval of what {@code resample} gives, called once per resample with the one random source. */
    static Interval interval(ToDoubleFunction<SplittableRandom> resample) {
        SplittableRandom random = new SplittableRandom(SEED);
        double[] values = new double[RESAMPLES];
        for (int i = 0; i < RESAMPLES; i++) {
            values[i] = resample.applyAsDouble(random);
        }
        Arrays.sort(values);
        return new Interval(values[(int) (0.025 * RESAMPLES)], values[(int) Math.ceil(0.975 * RESAMPLES) - 1]);
    }

    /** {@code n} indices below {@code n}, drawn with replacement. */
    static int[] draw(int n, SplittableRandom random) {
        int[] d = new int[n];
        for (int i = 0; i < n; i++) {
            d[i] = random.nextInt(n);
        }
        return d;
    }
}
