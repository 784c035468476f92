package dev.reprise.tests;

import static dev.reprise.tests.Reprise.corpus;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code reprise inspect}: what a user or a script learns about a recording without replaying it. */
class InspectTest {
    @TempDir
    static Path tmp;
    static Path rec;

    @BeforeAll
    static void record() {
        rec = tmp.resolve("rec");
        Run recorded = Reprise.record(rec, corpus("corpus.single.Clocks"));
        assertEquals(0, recorded.status(), recorded::toString);
    }

    @Test
    void textSummaryNamesThreadsEventKindsSizesAndCompletion() {
        Run run = inspect(rec.toString());
        assertEquals(0, run.status(), run::toString);
        String out = run.stdout();
        assertTrue(out.contains("command    " + String.join(" ", corpus("corpus.single.Clocks"))), out);
        assertTrue(out.contains("exit       0  (run completed)"), out);
        assertTrue(out.matches("(?s).*size       \\d+ bytes on disk, \\d+ bytes of events uncompressed.*"), out);
        assertTrue(out.matches("(?s).*\\n1 +\\d+ +\\d+ +\\d+\\n.*"), () -> "a row for the main thread\n" + out);
        assertTrue(out.matches("(?s).*\\ntime\\.nanos +\\d+\\n.*"), out);
        assertTrue(out.matches("(?s).*\\nfile\\.out\\.write +\\d+\\n.*"), out);
        assertEquals("", run.stderr());
    }

    @Test
    void jsonSummaryHasTheDocumentedKeysAndAddsUp() throws Exception {
        Run run = inspect("--json", rec.toString());
        assertEquals(0, run.status(), run::toString);
        JsonObject s = Json.parse(run.stdout());
        assertEquals(Set.of("recording", "command", "cwd", "java", "exitStatus", "completed", "durationMillis",
                "order", "events", "totalBytes", "rawBytes", "threads", "eventsByKind", "relaxedInRuns"), s.keySet());
        assertTrue(s.get("completed").getAsBoolean());
        assertEquals(0, s.get("exitStatus").getAsInt());
        assertEquals("corpus.single.Clocks", s.getAsJsonArray("command").get(3).getAsString());

        JsonArray threads = s.getAsJsonArray("threads");
        assertEquals(1, threads.size(), "Clocks runs on its main thread only");
        JsonObject main = threads.get(0).getAsJsonObject();
        assertEquals(Set.of("path", "events", "bytes", "rawBytes", "tornTail"), main.keySet());
        assertEquals("1", main.get("path").getAsString());
        assertFalse(main.get("tornTail").getAsBoolean());
        assertEquals(Files.size(rec.resolve("streams/t1.rpl")), main.get("bytes").getAsLong());
        assertEquals(s.get("events").getAsLong(), main.get("events").getAsLong());

        JsonObject kinds = s.getAsJsonObject("eventsByKind");
        assertTrue(kinds.get("time.nanos").getAsLong() > 2, "Clocks spins on nanoTime for 2 ms");
        assertEquals(13, kinds.get("file.out.write").getAsLong(), "one write per line Clocks prints");
        long sum = 0;
        for (Map.Entry<String, JsonElement> e : kinds.entrySet()) {
            sum += e.getValue().getAsLong();
        }
        assertEquals(s.get("events").getAsLong(), sum, "every event has a kind");
    }

    private static Run inspect(String... args) {
        List<String> all = new java.util.ArrayList<>(List.of("inspect"));
        all.addAll(List.of(args));
        return Reprise.reprise(all, null, Map.of(), null);
    }
}
