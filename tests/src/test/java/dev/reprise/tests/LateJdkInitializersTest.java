package dev.reprise.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * JDK classes the JVM loaded before the agent started but initializes later, on whichever of
 * the program's threads uses them first: replays with chaos, which change that thread, match
 * the recording.
 */
class LateJdkInitializersTest {
    private static final int CHAOS_REPLAYS = 6;

    @TempDir
    Path tmp;

    @ParameterizedTest(name = "under {0}")
    @CsvSource({"rto", "to"})
    void initializersOfClassesLoadedBeforeTheAgentAreReplayed(String order) {
        Path dir = tmp.resolve("rec");
        // No CDS log line: JDK 25 stamps it with the time since the JVM started.
        List<String> command = List.of(Reprise.JAVA, "-Xlog:cds=off",
                "-Djava.system.class.loader=corpus.threads.LateJdkInitializers$Loader", "-cp", Reprise.corpusClassPath(),
                "corpus.threads.LateJdkInitializers");
        List<String> args = new ArrayList<>(List.of("record", "--order", order, "-o", dir.toString(), "--"));
        args.addAll(command);
        Run recorded = Reprise.reprise(args, null, Map.of(), null);
        assertEquals(0, recorded.status(), recorded::toString);
        assertEquals("thread 0: 0\nthread 1: 11\nthread 2: 22\nthread 3: 33\n", recorded.stdout(), recorded::toString);
        Reprise.assertChaosReplaysMatch(dir, recorded, CHAOS_REPLAYS);
    }
}
