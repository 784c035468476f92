package dev.reprise.cli.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Predicate;

import dev.reprise.cli.bench.Summary.Cell;
import dev.reprise.cli.bench.Summary.Row;

/**
 * A grouped bar chart of the time-in-main ratios to plain (the measure the targets are set on),
 * per workload and their geomean (and the geomean of the workloads of a kind DaCapo has, if others
 * ran), with a line at 1.0. Written by hand: a few rectangles need no charting library. A failed mode gets no
 * bar but a red "x".
 */
final class SvgChart {
    static final String FILE = "results.svg";
    private static final List<Mode> MODES = List.of(Mode.RECORD_TO, Mode.RECORD_RTO, Mode.REPLAY_TO, Mode.REPLAY_RTO);
    private static final String[] COLORS = {"#9ecae1", "#3182bd", "#fdae6b", "#e6550d"};
    private static final int BAR = 16;
    private static final int GROUP = MODES.size() * BAR + 24;
    private static final int LEFT = 50;
    private static final int TOP = 30;
    private static final int HEIGHT = 240;
    private static final int LEGEND = 110;

    private SvgChart() {
    }

    static String render(Summary s) {
        List<String> names = new ArrayList<>();
        List<double[]> values = new ArrayList<>();
        for (Row r : s.rows()) {
            names.add(r.workload().name());
            values.add(MODES.stream().mapToDouble(m -> r.cells().get(m).timedRatio()).toArray());
        }
        names.add("geomean");
        values.add(geomeans(s, w -> true));
        if (s.mixesKinds()) {
            names.add("DaCapo kinds");
            values.add(geomeans(s, Workload::dacapoKind));
        }
        double max = 1.5;
        for (double[] v : values) {
            for (double x : v) {
                max = Double.isFinite(x) ? Math.max(max, x) : max;
            }
        }
        max = Math.ceil(max * 2) / 2;
        int width = LEFT + Math.max(names.size() * GROUP, MODES.size() * LEGEND) + 20;
        StringBuilder b = new StringBuilder();
        b.append(f("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" font-family=\"sans-serif\" font-size=\"11\">\n",
                width, TOP + HEIGHT + 60));
        b.append(f("<text x=\"%d\" y=\"18\" font-size=\"13\">Time in main, median ratio to plain (lower is better)</text>\n", LEFT));
        for (double t = 0; t <= max + 1e-9; t += 0.5) {
            int y = y(t, max);
            b.append(f("<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"%s\"/>\n", LEFT, y, width - 20, y,
                    t == 1.0 ? "#000" : "#ddd"));
            b.append(f("<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%.1fx</text>\n", LEFT - 4, y + 4, t));
        }
        for (int g = 0; g < names.size(); g++) {
            int x0 = LEFT + g * GROUP + 12;
            for (int m = 0; m < MODES.size(); m++) {
                double v = values.get(g)[m];
                int x = x0 + m * BAR;
                if (Double.isFinite(v)) {
                    int y = y(v, max);
                    b.append(f("<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\"><title>%s %s %.2fx</title></rect>\n",
                            x, y, BAR - 2, y(0, max) - y, COLORS[m], names.get(g), MODES.get(m).label(), v));
                } else {
                    b.append(f("<text x=\"%d\" y=\"%d\" fill=\"#c00\" text-anchor=\"middle\">x</text>\n",
                            x + BAR / 2 - 1, y(0, max) - 4));
                }
            }
            b.append(f("<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">%s</text>\n", x0 + MODES.size() * BAR / 2,
                    y(0, max) + 16, names.get(g)));
        }
        for (int m = 0; m < MODES.size(); m++) {
            int x = LEFT + m * LEGEND;
            int y = TOP + HEIGHT + 40;
            b.append(f("<rect x=\"%d\" y=\"%d\" width=\"12\" height=\"12\" fill=\"%s\"/><text x=\"%d\" y=\"%d\">%s</text>\n",
                    x, y - 10, COLORS[m], x + 16, y, MODES.get(m).label()));
        }
        return b.append("</svg>\n").toString();
    }

    /** Per mode, the geomean of the time-in-main ratios of the workloads {@code of} accepts. */
    private static double[] geomeans(Summary s, Predicate<Workload> of) {
        return MODES.stream().mapToDouble(m -> s.geomean(m, Cell::timedRatio, of).value()).toArray();
    }

    private static int y(double v, double max) {
        return TOP + HEIGHT - (int) Math.round(v / max * HEIGHT);
    }

    private static String f(String format, Object... args) {
        return String.format(Locale.ROOT, format, args);
    }
}
