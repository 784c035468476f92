package dev.reprise.cli.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

/** The report's arithmetic, on runs with made-up times: which geomeans it gives, over which workloads. */
class ReportsTest {
    private static final double[] RATIOS_LUINDEX = {1.21, 1.10, 1.44, 1.20};
    private static final double[] RATIOS_JUC = {4.0, 3.0, 9.0, 3.0};

    @Test
    void givesTheGeomeanOfTheDacapoKindsApartWhenAStressWorkloadRan() {
        Summary s = new Summary();
        s.add(workload("luindex"), runs("luindex", RATIOS_LUINDEX));
        s.add(workload("juc"), runs("juc", RATIOS_JUC));
        String md = Reports.markdown("", s);

        // record TO over both: sqrt(1.21 * 4.0) = 2.20; over luindex alone: 1.21.
        assertEquals("| **geomean** |  | **2.20x** | **1.82x** | **3.60x** | **1.90x** | |", line(md, "| **geomean** |"));
        assertEquals("| **geomean, DaCapo kinds** |  | **1.21x** | **1.10x** | **1.44x** | **1.20x** | |",
                line(md, "| **geomean, DaCapo kinds** |"));
        assertTrue(SvgChart.render(s).contains(">DaCapo kinds</text>"));
        // The interval is of the DaCapo kinds' geomean; with one run per mode, the geomean itself.
        assertEquals("95% interval of the geomean over the DaCapo kinds (bootstrap of each workload's measured runs, "
                + "2000 resamples): record TO 1.210x-1.210x, record RTO 1.100x-1.100x, replay TO 1.440x-1.440x, "
                + "replay RTO 1.200x-1.200x.", line(md, "95% interval"));
    }

    @Test
    void givesOneGeomeanWhenOnlyDacapoKindsRan() {
        Summary s = new Summary();
        s.add(workload("luindex"), runs("luindex", RATIOS_LUINDEX));
        String md = Reports.markdown("", s);

        assertEquals("| **geomean** |  | **1.21x** | **1.10x** | **1.44x** | **1.20x** | |", line(md, "| **geomean** |"));
        assertFalse(md.contains("DaCapo kinds"));
        assertFalse(SvgChart.render(s).contains("DaCapo kinds"));
    }

    /**
     * One workload, plain in 1 s every run, recorded under RTO in 1.1, 1.2 or 1.3 s: resampled
     * medians of three runs fall on one of those, each 1.1 or 1.3 in a quarter of the draws, so the
     * interval spans them. With runs all alike it is the geomean itself.
     */
    @Test
    void boundsTheGeomeanByResamplingEachWorkloadsRuns() {
        Summary s = new Summary();
        s.add(workload("luindex"), runs("luindex", new double[][] {{1.0, 1.0, 1.0}, {1.2, 1.2, 1.2}, {1.1, 1.3, 1.2},
                {1.5, 1.5, 1.5}, {1.1, 1.1, 1.1}}));
        String md = Reports.markdown("", s);

        assertEquals("95% interval of the geomean (bootstrap of each workload's measured runs, 2000 resamples): "
                + "record TO 1.200x-1.200x, record RTO 1.100x-1.300x, replay TO 1.500x-1.500x, replay RTO 1.100x-1.100x.",
                line(md, "95% interval"));
    }

    private static Workload workload(String name) {
        return Workload.ALL.stream().filter(w -> w.name().equals(name)).findFirst().orElseThrow();
    }

    /** One measured run per mode: one second in main plain, {@code ratios} times that recorded and replayed. */
    private static List<Run> runs(String workload, double[] ratios) {
        double[][] seconds = {{1.0}, {ratios[0]}, {ratios[1]}, {ratios[2]}, {ratios[3]}};
        return runs(workload, seconds);
    }

    /** Measured runs per mode (plain, record TO, record RTO, replay TO, replay RTO), their times in main in seconds. */
    private static List<Run> runs(String workload, double[][] seconds) {
        List<Run> runs = new ArrayList<>();
        Mode[] modes = {Mode.PLAIN, Mode.RECORD_TO, Mode.RECORD_RTO, Mode.REPLAY_TO, Mode.REPLAY_RTO};
        for (int i = 0; i < modes.length; i++) {
            for (int k = 0; k < seconds[i].length; k++) {
                long nanos = Math.round(seconds[i][k] * 1e9);
                runs.add(new Run(workload, modes[i], k + 1, false, nanos + 100_000_000L, nanos, 100_000, 0, "sha", 1000, null));
            }
        }
        return runs;
    }

    /** The first line of {@code text} that starts with {@code prefix}: the time-in-main table's. */
    private static String line(String text, String prefix) {
        return text.lines().filter(l -> l.startsWith(prefix)).findFirst().orElse("(none)");
    }
}
