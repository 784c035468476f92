package dev.reprise.tests;

import static dev.reprise.tests.Reprise.corpus;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import com.google.gson.JsonObject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A recorded program killed with SIGKILL cannot flush anything: the recording must still be
 * usable, up to the last chunk the background writer wrote, and say that it is cut short. The
 * writer flushes every stream on a timer too, so a program killed while it sleeps loses nothing.
 */
class KilledRecordingTest {
    /** Enough lines for several 64 KiB chunks before READY; the sleep keeps the program alive to be killed. */
    private static final String LINES = "12000";

    @TempDir
    Path tmp;

    @Test
    void killedRunReplaysItsFlushedPrefixAndExitsWithTheSignalStatus() throws Exception {
        Path dir = tmp.resolve("rec");
        String recorded = recordAndKill(dir);

        JsonObject manifest = Json.manifest(dir);
        assertFalse(manifest.get("completed").getAsBoolean());
        assertEquals(137, manifest.get("exitStatus").getAsInt());

        Run inspect = Reprise.reprise(List.of("inspect", dir.toString()), null, java.util.Map.of(), null);
        assertEquals(0, inspect.status(), inspect::toString);
        assertTrue(inspect.stdout().contains("run did NOT complete"), inspect::toString);
        JsonObject summary = Json.parse(Reprise.reprise(List.of("inspect", "--json", dir.toString()), null,
                java.util.Map.of(), null).stdout());
        assertTrue(summary.get("rawBytes").getAsLong() > 2 * 64 * 1024, "more than one chunk was written");

        Run replay = Reprise.replay(dir);
        assertEquals(137, replay.status(), replay::toString);
        // Killed in its sleep after READY: the timed flush had written every line before it.
        assertEquals(recorded, replay.stdout(), "replay prints all the program printed before its sleep");
        assertTrue(replay.stderr().contains("reprise: the recording ends here"), replay::toString);
    }

    /** Records Flood until it prints READY, then SIGKILLs its JVM; returns what the recording printed. */
    private static String recordAndKill(Path dir) throws Exception {
        List<String> cmd = new ArrayList<>(Reprise.cliCommand());
        cmd.addAll(List.of("record", "-o", dir.toString(), "--"));
        cmd.addAll(corpus("corpus.single.Flood", LINES, "60"));
        Process recorder = new ProcessBuilder(cmd).start();
        CompletableFuture<byte[]> stderr = Reprise.drain(recorder.getErrorStream());
        try {
            StringBuilder out = new StringBuilder();
            CompletableFuture<Boolean> ready = CompletableFuture.supplyAsync(() -> readUntilReady(recorder, out),
                    Reprise.READERS);
            assertTrue(ready.get(60, TimeUnit.SECONDS), () -> "no READY from the program:\n" + out);
            awaitChunks(dir.resolve("streams/t1.rpl"));
            Thread.sleep(1000); // ten periods of the timed flush, which writes what READY left in the buffer
            ProcessHandle program = recorder.children().findFirst().orElseThrow();
            program.destroyForcibly();
            assertTrue(recorder.waitFor(30, TimeUnit.SECONDS), "reprise record did not end after the kill");
            assertEquals(137, recorder.exitValue());
            String err = new String(stderr.get(30, TimeUnit.SECONDS), StandardCharsets.UTF_8);
            assertTrue(err.contains("reprise: the program was killed by signal 9 (exit status 137)"), err);
            return out.toString();
        } finally {
            recorder.descendants().forEach(ProcessHandle::destroyForcibly);
            recorder.destroyForcibly();
        }
    }

    /**
     * Waits until the background writer has put several chunks on disk: it runs behind the program,
     * and the test is about a kill that leaves complete chunks, not about the writer's lag.
     */
    private static void awaitChunks(Path stream) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!(Files.exists(stream) && Files.size(stream) > 48 * 1024)) {
            assertTrue(System.nanoTime() < deadline, "the recorder wrote no chunks");
            Thread.sleep(50);
        }
    }

    private static boolean readUntilReady(Process p, StringBuilder out) {
        try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line; (line = r.readLine()) != null; ) {
                out.append(line).append('\n');
                if (line.equals("READY")) {
                    return true;
                }
            }
            return false;
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
