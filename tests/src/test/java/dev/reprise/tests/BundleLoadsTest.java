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
 * Threads looking up one resource bundle one after the other: which of them loads it into the
 * JDK's cache, and which find it there, is a race. Replays with chaos, which change who loads
 * it, match the recording.
 */
class BundleLoadsTest {
    private static final int CHAOS_REPLAYS = 5;

    @TempDir
    Path tmp;

    @ParameterizedTest(name = "under {0}")
    @CsvSource({"rto", "to"})
    void bundleLoadedByWhicheverThreadMissesTheCacheIsReplayed(String order) {
        Path dir = tmp.resolve("rec");
        List<String> args = new ArrayList<>(List.of("record", "--order", order, "-o", dir.toString(), "--"));
        args.addAll(Reprise.corpus("corpus.threads.LateBundleLoads"));
        Run recorded = Reprise.reprise(args, null, Map.of(), null);
        assertEquals(0, recorded.status(), recorded::toString);
        assertEquals("thread 0: hello from the bundle\nthread 1: goodbye from the bundle\nthread 2: three messages\n"
                + "thread 3: hello from the bundle\n", recorded.stdout(), recorded::toString);
        Reprise.assertChaosReplaysMatch(dir, recorded, CHAOS_REPLAYS);
    }
}
