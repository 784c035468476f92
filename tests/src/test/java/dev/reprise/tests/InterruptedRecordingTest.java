package dev.reprise.tests;

import static dev.reprise.tests.Reprise.corpus;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import com.google.gson.JsonObject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Recordings ended from outside, as users end them: Ctrl-C, a signal to the recorder or to the
 * program, a killed recorder, {@code Runtime.halt}, a disk that fills up. Each leaves a recording
 * that replays what it holds, every thread as far as its stream goes, the same way every time
 * (chaos included), and says where it ends. The program ({@code corpus.lifecycle.Chatter}: main
 * and three workers printing numbered lines, a shutdown hook that prints) runs until it is ended;
 * lines printed after the recording's cut are not replayed, so a replay prints the recorded
 * lines in order, with the last moments' left out, and is compared with the recorded output as such.
 */
class InterruptedRecordingTest {
    /** Lines each thread prints at full speed before it slows down to ten every 50 ms. */
    private static final String LINES = "2000";
    /** How long before the end a line the replay lacks may have been printed. */
    private static final long LOST_MILLIS = 500;

    @TempDir
    Path tmp;

    @Test
    void ctrlCToTheProcessGroupSavesARecordingThatReplaysThroughTheShutdownHook() throws Exception {
        assumeFalse(sigintIgnored(), "SIGINT is ignored by this test run, as by any job a shell starts in the"
                + " background, and by the processes it starts: Ctrl-C reaches none of them");
        Path dir = tmp.resolve("rec");
        // setsid: the recorder leads a process group of its own, as a shell's foreground job does.
        Run recorded = recordChatter(List.of("setsid"), dir, live -> signal("INT", "-" + live.recorder().pid()));
        assertEquals(130, recorded.status(), recorded::toString);
        assertTrue(recorded.stderr().contains("reprise: interrupted (SIGINT): forwarded to the program, which exited"
                + " with status 130; recording saved in " + dir), recorded.stderr());
        assertTrue(recorded.stdout().contains("\nhook: "), "the program's shutdown hook ran");
        assertEquals(130, Json.manifest(dir).get("exitStatus").getAsInt());
        Run replay = assertReplaysTheCutRecording(dir, recorded, "was ended by signal 2 while threads still ran");
        assertTrue(replay.stdout().contains("\nhook: "), "the shutdown hook replays: " + replay);
    }

    @Test
    void sigtermToTheRecorderAloneIsForwardedAndTheRecordingSaved() throws Exception {
        Path dir = tmp.resolve("rec");
        Run recorded = recordChatter(List.of(), dir, live -> live.recorder().destroy()); // SIGTERM
        assertEquals(143, recorded.status(), recorded::toString);
        assertTrue(recorded.stderr().contains("reprise: interrupted (SIGTERM): forwarded to the program"), recorded.stderr());
        assertTrue(recorded.stdout().contains("\nhook: "), "the program's shutdown hook ran");
        Run replay = assertReplaysTheCutRecording(dir, recorded, "was ended by signal 15 while threads still ran");
        assertTrue(replay.stdout().contains("\nhook: "), "the shutdown hook replays: " + replay);
    }

    @Test
    void aKilledRecorderEndsTheProgramAndLeavesARecordingThatReplays() throws Exception {
        Path dir = tmp.resolve("rec");
        Run recorded = recordChatter(List.of(), dir, live -> {
            ProcessHandle program = live.program();
            live.recorder().destroyForcibly();
            assertTrue(program.onExit().get(30, TimeUnit.SECONDS) != null, "the program outlived its recorder");
        });
        assertEquals(137, recorded.status());
        assertTrue(recorded.stderr().matches("(?s).*reprise: reprise record \\(pid \\d+\\) is gone: ending the program as a"
                + " SIGTERM would\n.*"), recorded.stderr());
        JsonObject manifest = Json.manifest(dir);
        assertEquals(-1, manifest.get("exitStatus").getAsInt(), "the provisional manifest stays");
        Run replay = assertReplaysTheCutRecording(dir, new Run(143, recorded.stdout(), ""),
                "was ended when reprise record was killed");
        assertTrue(replay.stdout().contains("\nhook: "), "the shutdown hook replays: " + replay);
    }

    @Test
    void aKilledMultiThreadedProgramReplaysAlmostAllItPrinted() throws Exception {
        Path dir = tmp.resolve("rec");
        Run recorded = recordChatter(List.of(), dir, live -> live.program().destroyForcibly());
        assertEquals(137, recorded.status());
        assertTrue(recorded.stderr().contains("reprise: the program was killed by signal 9 (exit status 137)"),
                recorded.stderr());
        assertReplaysTheCutRecording(dir, recorded, "was killed by signal 9");
    }

    @Test
    void aHaltedProgramReplaysWhatItsThreadsRecorded() throws Exception {
        Path dir = tmp.resolve("rec");
        List<String> command = new ArrayList<>(chatter());
        command.addAll(List.of("halt", "7"));
        Run recorded = Reprise.record(dir, command);
        assertEquals(7, recorded.status(), recorded::toString);
        assertTrue(recorded.stderr().contains("reprise: the program halted before its exit completed (exit status 7)"),
                recorded.stderr());
        Run replay = assertReplaysTheCutRecording(dir, recorded, "halted with status 7");
        assertTrue(replay.stdout().contains("\nmain line 0 at "), "main replays its lines after READY: " + replay);
    }

    @Test
    void aWriteFailureCutsTheRecordingWithAMessageAndTheProgramsStatus() throws Exception {
        Path dir = tmp.resolve("rec");
        // RLIMIT_FSIZE: writes past 256 KiB fail with EFBIG (the JVM ignores SIGXFSZ), as on a full disk.
        // The class cache is off: its files would hit the limit too.
        List<String> cmd = new ArrayList<>(List.of("bash", "-c", "ulimit -f 256 && exec \"$@\"", "bash"));
        cmd.addAll(Reprise.repriseCommand(List.of("record", "-o", dir.toString(), "--")));
        cmd.addAll(corpus("corpus.single.Flood", "40000", "0"));
        Run recorded = Reprise.exec(cmd, null, java.util.Map.of("REPRISE_CACHE_DIR", ""), null);
        assertEquals(0, recorded.status(), recorded::toString);
        assertTrue(recorded.stdout().endsWith("line 39999 at " + recorded.stdout().split("line 39999 at ")[1]),
                "the program ran to its end");
        assertTrue(recorded.stderr().startsWith("reprise: cannot write the recording (File too large): it is cut here"),
                recorded.stderr());
        assertTrue(recorded.stderr().contains("reprise: the program went on unrecorded after writing the recording"
                + " failed (File too large) (exit status 0)"), recorded.stderr());
        assertFalse(Json.manifest(dir).get("completed").getAsBoolean());
        Run replay = Reprise.replay(dir);
        assertEquals(0, replay.status(), replay::toString);
        assertTrue(replay.stdout().startsWith("line 0 at ") && recorded.stdout().startsWith(replay.stdout()),
                "the replay prints a prefix of the recorded output: " + replay);
        assertTrue(replay.stdout().split("\n").length > 4000, "the replay prints what was written: " + replay);
        assertTrue(replay.stderr().contains("reprise: the recording ends here: the recorded run was cut where writing"
                + " the recording failed (File too large)"), replay::toString);
    }

    /** A line's clock reading ({@code ... at NANOS}), 0 for a line without one. */
    private static long stamp(String line) {
        int at = line.lastIndexOf(" at ");
        return at < 0 ? 0 : Long.parseLong(line.substring(at + 4));
    }

    /** Whether this JVM inherited SIGINT ignored (bit 2 of the {@code SigIgn} mask Linux shows). */
    private static boolean sigintIgnored() throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
            if (line.startsWith("SigIgn:")) {
                return (Long.parseLong(line.substring("SigIgn:".length()).strip(), 16) & 0x2) != 0;
            }
        }
        return false;
    }

    /** How a test ends a running recording. */
    private interface Ending {
        void end(LiveRecording live) throws Exception;
    }

    /**
     * Records {@code Chatter} ({@code prefix} wrapping the recorder), ends the run with
     * {@code ending} once READY and 2000 lines more are out and a second has passed, and returns
     * what it printed.
     */
    private static Run recordChatter(List<String> prefix, Path dir, Ending ending) throws Exception {
        LiveRecording live = LiveRecording.start(prefix, dir, chatter());
        try {
            live.awaitLine("READY", 2000);
            // Twice the bound on lost lines: the lines printed before it must replay.
            Thread.sleep(2 * LOST_MILLIS);
            ending.end(live);
            return live.finish();
        } finally {
            live.destroy();
        }
    }

    /** {@code Chatter 3 LINES}. */
    private static List<String> chatter() {
        return corpus("corpus.lifecycle.Chatter", "3", LINES);
    }

    private static void signal(String name, String target) throws Exception {
        Process kill = new ProcessBuilder("kill", "-s", name, "--", target).inheritIO().start();
        assertEquals(0, kill.waitFor());
    }

    /**
     * Replays {@code dir}, then again with chaos seeds 1 and 2 ({@link Reprise#chaosReplays}): each replay exits with the recorded
     * status, says where the recording ends ({@code how}), and prints the same bytes as the
     * first. What it prints is the recorded output with lines left out, those the cut lost: each
     * was printed (its clock reading says when) after the cut or at most {@value #LOST_MILLIS} ms
     * before it, the bound of the timed flush with room for a loaded machine; the cut is the
     * latest line the replay prints. Returns the first replay.
     */
    private static Run assertReplaysTheCutRecording(Path dir, Run recorded, String how) {
        Run first = Reprise.replay(dir);
        assertEquals(recorded.status(), first.status(), first::toString);
        assertTrue(first.stderr().contains("reprise: the recording ends here: the recorded run " + how), first::toString);
        String[] rec = recorded.stdout().split("\n");
        String[] rep = first.stdout().isEmpty() ? new String[0] : first.stdout().split("\n");
        // The cut, as near as the output tells: the latest line the recording holds. Lines the
        // threads printed after it, while the exit ran on, are lost by design and do not count.
        long last = 0;
        for (String line : rep) {
            last = Math.max(last, stamp(line));
        }
        int at = 0;
        for (String line : rec) {
            if (at < rep.length && rep[at].equals(line)) {
                at++;
            } else if (stamp(line) > 0) {
                long lostMillis = TimeUnit.NANOSECONDS.toMillis(last - stamp(line));
                assertTrue(lostMillis <= LOST_MILLIS, "the replay lacks '" + line + "', printed " + lostMillis
                        + " ms before the end");
            }
        }
        int replayed = at;
        assertTrue(replayed > 0, () -> "the replay printed nothing: " + first);
        assertEquals(rep.length, replayed, () -> "replay line " + replayed + " is not in the recorded output in that"
                + " order: " + rep[replayed]);
        for (long seed = 1; seed <= Reprise.chaosReplays(2); seed++) {
            Run again = Reprise.replay(dir, "--chaos", Long.toString(seed));
            assertEquals(first.stdout(), again.stdout(), () -> "stdout differs with chaos\n" + again);
            assertEquals(first.stderr(), again.stderr(), () -> "stderr differs with chaos\n" + again);
            assertEquals(first.status(), again.status(), () -> "exit status differs with chaos\n" + again);
        }
        return first;
    }
}
