package dev.reprise.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Isolated;

import dev.reprise.cli.conformance.Program;
import dev.reprise.cli.conformance.ProgramList;

/**
 * {@code reprise conformance --quick}: real programs from Maven Central (downloaded by the
 * conformance build on first use) recorded and replayed with {@code --chaos} under both orderings
 * on the JDK running the tests, each replay byte for byte the recording. The quick subset holds
 * programs that replay today, so a regression in any of them fails this test. Isolated: other
 * tests' JVMs would only slow it down.
 */
@Isolated
class ConformanceQuickTest {
    private static final long TIMEOUT_SECONDS = 1500;

    @TempDir
    Path tmp;

    @Test
    void quickSubsetReplaysOnThisJdk() throws Exception {
        Path out = tmp.resolve("CONFORMANCE.md");
        Path home = Path.of(System.getProperty("java.home"));
        Run run = Reprise.exec(Reprise.repriseCommand(List.of("conformance", "--quick", "--replays", Integer.toString(Reprise.chaosReplays(2)), "--jdk",
                home.toString(), "--out", out.toString())), null, Map.of(), null, TIMEOUT_SECONDS);
        assertTrue(Files.isRegularFile(out), () -> "no table\n" + run);
        String md = Reprise.read(out);
        List<Program> quick = ProgramList.read(Reprise.ROOT.resolve("conformance")).stream().filter(Program::quick).toList();
        assertTrue(quick.size() >= 5, "a quick subset of several kinds");
        for (Program p : quick) {
            String row = md.lines().filter(l -> l.startsWith("| " + p.name() + " | " + p.kind() + " |")).findFirst()
                    .orElseThrow(() -> new AssertionError("no row for " + p.name() + "\n" + md));
            assertTrue(row.endsWith("| ok | ok | ok |"), () -> p.name() + " replays under both orderings\n" + row + "\n" + run);
        }
        assertEquals(0, run.status(), () -> "every program replayed\n" + run);
        assertTrue(run.stderr().contains("reprise: conformance: " + quick.size() + " of " + quick.size() + " ok"), run::toString);
    }

    @Test
    void unknownProgramIsAUsageError() {
        Run run = Reprise.reprise(List.of("conformance", "--out", tmp.resolve("x.md").toString(), "--only", "dacapo"),
                null, Map.of(), null);
        assertEquals(2, run.status(), run::toString);
        assertTrue(run.stderr().startsWith("reprise: unknown program 'dacapo' (one of javac, "), run::toString);
        assertTrue(Files.notExists(tmp.resolve("x.md")), "nothing written");
    }
}
