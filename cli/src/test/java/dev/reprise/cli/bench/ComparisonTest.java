package dev.reprise.cli.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

/** What scripts/compare-agents prints, from made-up times in main: medians, ratios and their intervals. */
class ComparisonTest {
    private static final double F = Double.NaN;

    @Test
    void takesTheMiddleOfAnOddCountAndTheLowerMiddleOfAnEvenOne() {
        assertEquals(20, Comparison.median(new double[] {30, 10, 20}));
        assertEquals(20, Comparison.median(new double[] {40, 10, 30, 20}), "one run's own time, not 25");
        assertEquals(30, Comparison.median(new double[] {50, F, 10, 30}), "the failed run is not counted");
        assertTrue(Double.isNaN(Comparison.median(new double[] {F, F})));
    }

    @Test
    void leavesOutTheRoundsWhereEitherRunFailed() {
        Comparison c = Comparison.of(new double[] {100, F, 110, 120}, new double[] {200, 210, F, 240});
        assertEquals(2, c.rounds());
        // Rounds 1 and 4 only: the baseline's 110 would have been its median.
        assertEquals(100, c.baselineMedian());
        assertEquals(200, c.candidateMedian());
        assertEquals(2.0, c.ratio());
    }

    /** A candidate 10% slower in every round, by the same amount each time or by a varying one. */
    @Test
    void boundsTheRatioMoreTightlyTheMoreAlikeTheRoundsAre() {
        double[] baseline = {1000, 1010, 990, 1020, 980, 1005, 995, 1015};
        Comparison alike = Comparison.of(baseline, new double[] {1100, 1111, 1089, 1122, 1078, 1105.5, 1094.5, 1116.5});
        Comparison close = Comparison.of(baseline, new double[] {1110, 1105, 1095, 1115, 1085, 1100, 1090, 1125});
        Comparison apart = Comparison.of(baseline, new double[] {1300, 950, 1100, 1250, 900, 1050, 1200, 1000});
        for (Comparison c : List.of(alike, close, apart)) {
            assertTrue(c.interval().low() <= c.ratio() && c.ratio() <= c.interval().high(), c::toString);
        }
        assertEquals(1.1, alike.interval().low(), 1e-12, "every resample gives the ratio itself");
        assertEquals(1.1, alike.interval().high(), 1e-12);
        assertTrue(width(alike) < width(close) && width(close) < width(apart),
                () -> width(alike) + " " + width(close) + " " + width(apart));
    }

    @Test
    void givesTheSameIntervalForTheSameRounds() {
        double[] baseline = {1000, 1010, 990, 1020, 980};
        double[] candidate = {1300, 950, 1100, 1250, 900};
        assertEquals(Comparison.of(baseline, candidate), Comparison.of(baseline, candidate));
    }

    @Test
    void needsTwoRoundsWithBothRuns() {
        assertNull(Comparison.of(new double[] {100, F, 120}, new double[] {F, 110, 130}), "one round has both");
        assertNull(Comparison.of(new double[] {100, F}, new double[] {F, 110}), "none has both");
        assertNull(Comparison.of(new double[] {100}, new double[] {110}), "one round ran");
        assertEquals(2, Comparison.of(new double[] {100, F, 120, 90}, new double[] {F, 110, 130, 100}).rounds());
    }

    @Test
    void printsTheScriptsLines() {
        String out = Comparison.report(List.of("--plain", " 1000 1100 1050", "   ",
                "old.jar", " 950 - 1000", "   ", "new.jar", " 900 1000 -", "   "));
        assertEquals("""
                plain median_ms=1050 runs=[ 1000 1100 1050 ]
                old.jar median_ms=950 ratio=0.905 runs=[ 950 - 1000 ]
                new.jar median_ms=900 ratio=0.857 runs=[ 900 1000 - ]
                new.jar against old.jar: too few rounds
                """, out);
    }

    @Test
    void printsTheIntervalOverTheRoundsAndEachRunsPeakRss() {
        String out = Comparison.report(List.of("old.jar", " 1000 1010 990 1020 980", " 300 310 305 320 290",
                "new.jar", " 1100 1111 1089 1122 1078", " 400 410 405 420 390"));
        assertEquals("""
                old.jar median_ms=1000 runs=[ 1000 1010 990 1020 980 ] rss_mib=305 rss_runs=[ 300 310 305 320 290 ]
                new.jar median_ms=1100 runs=[ 1100 1111 1089 1122 1078 ] rss_mib=405 rss_runs=[ 400 410 405 420 390 ]
                new.jar against old.jar: 1.100, 95% interval 1.100-1.100 over 5 rounds
                """, out);
    }

    private static double width(Comparison c) {
        return c.interval().high() - c.interval().low();
    }
}
