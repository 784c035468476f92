package dev.reprise.tests;

import static dev.reprise.tests.Reprise.corpus;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The cache of instrumented JDK classes ({@code REPRISE_CACHE_DIR}): a recording made while it
 * fills replays identically from it, and damaged entries are neither trusted nor kept.
 */
class ClassCacheTest {
    @TempDir
    Path tmp;

    @Test
    void recordingsReplayFromTheCacheAndDamagedEntriesAreRebuilt() throws Exception {
        Path cache = tmp.resolve("cache");
        Map<String, String> env = Map.of("REPRISE_CACHE_DIR", cache.toString());
        Path rec = tmp.resolve("rec");
        Run recorded = Reprise.record(rec, corpus("corpus.juc.Locks"), null, env);
        assertEquals(0, recorded.status(), recorded::toString);

        Map<Path, byte[]> entries = entries(cache);
        assertTrue(entries.keySet().stream().anyMatch(p -> p.getFileName().toString()
                .startsWith("java.util.concurrent.locks.ReentrantLock.")), entries.keySet()::toString);
        assertSameRun(recorded, replay(rec, env));

        Map<Path, byte[]> damaged = new TreeMap<>();
        for (Map.Entry<Path, byte[]> e : entries.entrySet()) {
            byte[] bytes = e.getValue().clone();
            bytes[bytes.length - 1] ^= 0x5A;
            Files.write(e.getKey(), bytes);
            damaged.put(e.getKey(), bytes);
        }
        assertSameRun(recorded, replay(rec, env));
        // Every entry the replay needed was instrumented anew and rewritten, exactly as before.
        Map<Path, byte[]> after = entries(cache);
        int rebuilt = 0;
        for (Map.Entry<Path, byte[]> e : entries.entrySet()) {
            byte[] now = after.get(e.getKey());
            if (!java.util.Arrays.equals(now, damaged.get(e.getKey()))) {
                assertArrayEquals(e.getValue(), now, () -> e.getKey() + " rebuilt differently");
                rebuilt++;
            }
        }
        assertTrue(after.entrySet().stream().anyMatch(e -> e.getKey().getFileName().toString()
                .startsWith("java.util.concurrent.locks.ReentrantLock.")
                && !java.util.Arrays.equals(e.getValue(), damaged.get(e.getKey()))), "ReentrantLock's entry not rebuilt");
        assertTrue(rebuilt > 0);
    }

    /**
     * JFR's exception events make every Throwable's constructor call a JFR class; a cache miss
     * that threw while that class loaded recursed until the stack overflowed (exit status 70).
     */
    @Test
    void recordsWithFlightRecorderExceptionEventsOnAndAnEmptyCache() {
        Map<String, String> env = Map.of("REPRISE_CACHE_DIR", tmp.resolve("cache").toString());
        List<String> command = new ArrayList<>(corpus("corpus.single.Clocks"));
        command.add(1, "-XX:StartFlightRecording=filename=" + tmp.resolve("run.jfr") + ",settings=profile");
        Run recorded = Reprise.record(tmp.resolve("rec"), command, null, env);
        assertEquals(0, recorded.status(), recorded::toString);
        assertTrue(Files.isRegularFile(tmp.resolve("run.jfr")), recorded::toString);
    }

    private static Run replay(Path rec, Map<String, String> env) {
        return Reprise.reprise(List.of("replay", rec.toString()), null, env, null);
    }

    private static void assertSameRun(Run recorded, Run replayed) {
        assertEquals(recorded.stdout(), replayed.stdout(), replayed::toString);
        assertEquals(recorded.status(), replayed.status(), replayed::toString);
    }

    private static Map<Path, byte[]> entries(Path cache) throws Exception {
        Map<Path, byte[]> out = new TreeMap<>();
        List<Path> files = new ArrayList<>();
        try (Stream<Path> s = Files.walk(cache)) {
            s.filter(Files::isRegularFile).forEach(files::add);
        }
        for (Path f : files) {
            out.put(f, Files.readAllBytes(f));
        }
        return out;
    }
}
