package dev.reprise.cli.bench;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A candidate's time in main against a baseline's over paired rounds, each round having run both:
 * the median of each, the ratio of the candidate's to the baseline's, and the ratio's 95% interval
 * from a {@link Bootstrap} that draws whole rounds, so that drift slowing one round slows both of
 * its runs. A failed run is NaN and its round is left out.
 *
 * <p>Its {@link #main} gives {@code scripts/compare-agents} its figures; the script times the runs.
 */
record Comparison(double baselineMedian, double candidateMedian, int rounds, Bootstrap.Interval interval) {
    double ratio() {
        return candidateMedian / baselineMedian;
    }

    /** The comparison over the rounds where both runs succeeded, or null for fewer than two such rounds. */
    static Comparison of(double[] baseline, double[] candidate) {
        int paired = Math.min(baseline.length, candidate.length);
        double[] x = new double[paired];
        double[] y = new double[paired];
        int n = 0;
        for (int i = 0; i < paired; i++) {
            if (!Double.isNaN(baseline[i]) && !Double.isNaN(candidate[i])) {
                x[n] = baseline[i];
                y[n] = candidate[i];
                n++;
            }
        }
        if (n < 2) {
            return null;
        }
        double[] xs = Arrays.copyOf(x, n);
        double[] ys = Arrays.copyOf(y, n);
        Bootstrap.Interval interval = Bootstrap.interval(random -> {
            int[] drawn = Bootstrap.draw(xs.length, random);
            double[] u = new double[drawn.length];
            double[] w = new double[drawn.length];
            for (int i = 0; i < drawn.length; i++) {
                u[i] = xs[drawn[i]];
                w[i] = ys[drawn[i]];
            }
            return median(w) / median(u);
        });
        return new Comparison(median(xs), median(ys), n, interval);
    }

    /**
     * The median of the runs that succeeded, NaN for none. Of an even count it is the lower middle,
     * not {@link Summary#median}'s mean of the two, so that it is always one run's own time and the
     * figures read as those the script gave before it had this class.
     */
    static double median(double[] runs) {
        double[] ok = Arrays.stream(runs).filter(v -> !Double.isNaN(v)).sorted().toArray();
        return ok.length == 0 ? Double.NaN : ok[(ok.length - 1) / 2];
    }

    /**
     * Prints compare-agents' lines. Arguments: {@code [--plain RUNS RSS] NAME RUNS RSS...}, where
     * RUNS are one series' times in main in ms, one a round, {@code -} for a failed run, and RSS
     * its peak RSS in MiB, blank when not measured. Each series after the first NAME is compared
     * with it.
     */
    public static void main(String[] args) {
        try {
            System.out.print(report(List.of(args)));
        } catch (IllegalArgumentException e) {
            System.err.println(e.getMessage());
            System.exit(2);
        }
    }

    /** The lines {@link #main} prints for {@code args}. */
    static String report(List<String> args) {
        List<String> a = args;
        StringBuilder b = new StringBuilder();
        double p = Double.NaN;
        if (a.size() >= 3 && a.get(0).equals("--plain")) {
            p = median(runs(a.get(1)));
            b.append("plain median_ms=").append(whole(p)).append(series(a.get(1), a.get(2))).append('\n');
            a = a.subList(3, a.size());
        }
        if (a.size() % 3 != 0) {
            throw new IllegalArgumentException("usage: Comparison [--plain RUNS RSS] NAME RUNS RSS...");
        }
        List<double[]> jars = new ArrayList<>();
        for (int k = 0; k < a.size(); k += 3) {
            double[] t = runs(a.get(k + 1));
            jars.add(t);
            double m = median(t);
            b.append(a.get(k)).append(" median_ms=").append(whole(m));
            if (!Double.isNaN(p)) {
                b.append(" ratio=").append(Double.isNaN(m) || p == 0 ? "" : threePlaces(m / p));
            }
            b.append(series(a.get(k + 1), a.get(k + 2))).append('\n');
        }
        for (int k = 1; k < jars.size(); k++) {
            Comparison c = of(jars.get(0), jars.get(k));
            b.append(a.get(3 * k)).append(" against ").append(a.get(0)).append(": ")
                    .append(c == null ? "too few rounds" : threePlaces(c.ratio()) + ", 95% interval "
                            + threePlaces(c.interval().low()) + "-" + threePlaces(c.interval().high()) + " over "
                            + c.rounds() + " rounds")
                    .append('\n');
        }
        return b.toString();
    }

    /** One value a round, as the script collected them: words, {@code -} for a failed run. */
    private static double[] runs(String words) {
        return Arrays.stream(words.trim().split("\\s+")).filter(w -> !w.isEmpty())
                .mapToDouble(w -> w.equals("-") ? Double.NaN : Long.parseLong(w)).toArray();
    }

    /** The runs as given, and with RSS measured, its median and runs. */
    private static String series(String runs, String rss) {
        String s = " runs=[" + runs + " ]";
        return rss.isBlank() ? s : s + " rss_mib=" + whole(median(runs(rss))) + " rss_runs=[" + rss + " ]";
    }

    private static String whole(double v) {
        return Double.isNaN(v) ? "" : Long.toString((long) v);
    }

    /** Three places, rounded as {@code printf}'s {@code %.3f}, in any locale. */
    private static String threePlaces(double v) {
        return new BigDecimal(v).setScale(3, RoundingMode.HALF_EVEN).toPlainString();
    }
}
