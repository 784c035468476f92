package dev.reprise.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Isolated;

import dev.reprise.cli.bench.Workload;

/**
 * {@code reprise bench --quick} runs end to end and reports a replay verdict for every quick
 * workload. It checks that replays are right, not timings. Isolated: other tests' JVMs would only
 * slow it down.
 */
@Isolated
class BenchQuickTest {
    private static final long TIMEOUT_SECONDS = 600;

    @TempDir
    Path tmp;

    @Test
    void quickBenchWritesReportsWithAVerdictPerWorkload() throws Exception {
        Path out = tmp.resolve("results");
        Run run = Reprise.exec(Reprise.repriseCommand(List.of("bench", "--quick", "--out", out.toString())), null,
                Map.of(), null, TIMEOUT_SECONDS);
        for (String f : List.of("results.md", "results.csv", "runs.csv", "results.svg")) {
            assertTrue(Files.isRegularFile(out.resolve(f)), () -> f + " missing\n" + run);
        }
        String md = Reprise.read(out.resolve("results.md"));
        assertEquals(md, run.stdout(), "the report is also printed");
        boolean diverged = false;
        for (String w : Workload.QUICK) {
            String row = md.lines().filter(l -> l.startsWith("| " + w + " |") && (l.contains("| ok ") || l.contains("DIVERGED")))
                    .findFirst().orElseThrow(() -> new AssertionError("no verdict for " + w + "\n" + md));
            diverged |= row.contains("DIVERGED");
        }
        assertTrue(md.lines().anyMatch(l -> l.startsWith("| luindex |") && l.endsWith("| ok 4/4 |")),
                () -> "a single-threaded workload replays every time\n" + md);
        assertEquals(diverged ? 3 : 0, run.status(), () -> "exit status 3 exactly when a replay diverged\n" + run);
        for (String table : List.of("### Time in main", "### Process wall time")) {
            assertTrue(md.contains(table), () -> "a table " + table + "\n" + md);
            String section = md.substring(md.indexOf(table), md.indexOf("\n###", md.indexOf(table) + 1));
            String row = section.lines().filter(l -> l.startsWith("| luindex |")).findFirst()
                    .orElseThrow(() -> new AssertionError(table + " has no luindex row\n" + md));
            assertEquals(4, row.split("\\| \\d+\\.\\d\\dx", -1).length - 1, () -> "four ratios to plain: " + row);
        }
        Matcher interval = Pattern
                .compile("(?m)^95% interval of the geomean .*: record TO .*, record RTO (\\d+\\.\\d{3})x-(\\d+\\.\\d{3})x, "
                        + "replay TO .*, replay RTO .*\\.$").matcher(md);
        assertTrue(interval.find(), () -> "the record geomean's interval under the time table\n" + md);
        assertTrue(Double.parseDouble(interval.group(1)) <= Double.parseDouble(interval.group(2)), interval.group());
        assertTrue(run.stderr().contains("reprise: bench: luindex run 3/3 replay RTO"), () -> "progress on stderr\n" + run);
        List<String> csv = Files.readAllLines(out.resolve("results.csv"));
        assertEquals(1 + 5 * Workload.QUICK.size(), csv.size(), () -> "a row per workload and mode\n" + csv);
        assertTrue(Reprise.read(out.resolve("results.svg")).startsWith("<svg "), "an SVG chart");
    }

    @Test
    void unknownWorkloadIsAUsageError() {
        Run run = Reprise.reprise(List.of("bench", "--out", tmp.resolve("x").toString(), "dacapo"), null, Map.of(), null);
        assertEquals(2, run.status(), run::toString);
        assertTrue(run.stderr().startsWith("reprise: unknown workload 'dacapo'"), run::toString);
        assertTrue(Files.notExists(tmp.resolve("x")), "nothing written");
    }
}
