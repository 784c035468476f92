package dev.reprise.tests;

import static dev.reprise.tests.Reprise.corpus;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Child processes are recorded and replayed without starting any: the program's view of each
 * child (its output, exit status, waits, pid, handle) comes from the recording. Every child the
 * corpus programs start touches a marker file; the replays run with no network and a PATH
 * without tools, and must leave no marker.
 */
class ChildProcessTest {
    private static final int REPLAYS = 3;

    @TempDir
    Path tmp;
    /** The environment that names this test's class cache; none but the user's by default. */
    private Map<String, String> cache = Map.of();

    @Test
    void realToolsReplayWithoutAnyChild() throws IOException {
        Path markers = Files.createDirectory(tmp.resolve("markers"));
        Path rec = tmp.resolve("rec");
        Run recorded = Reprise.record(rec, corpus("corpus.process.Tools", markers.toString()));
        assertEquals(0, recorded.status(), recorded::toString);
        String out = recorded.stdout();
        assertTrue(out.matches("(?s)date: \\d+\n\n.*"), recorded::toString);
        assertTrue(out.contains("cat: through cat|second line| status 0\n"), recorded::toString);
        assertTrue(out.contains("out: to-out\nerr: to-err\nstatus 3 exitValue 3 alive false\n"), recorded::toString);
        assertTrue(out.contains("merged: one|two|three| status 0\n"), recorded::toString);
        assertTrue(out.contains("ls status 0: a.txt|b.txt|listing|\n"), recorded::toString);
        assertTrue(out.contains("before the inherited child\ninherited out\ninherited status 0\n"), recorded::toString);
        assertEquals("inherited err\n", recorded.stderr(), recorded::toString);
        assertTrue(out.contains("sleeper ready\ntimed wait false alive true\nhandle pid matches true, pid "),
                recorded::toString);
        assertTrue(out.contains("exitValue: process hasn't exited\ndestroyed, onExit 143, handle onExit false\n"
                + "stubborn ready\nforcibly true status 137\nexec x, status 0\nmissing tool: Cannot run program \"/no/such/tool\""),
                recorded::toString);
        assertEquals(List.of("both", "cat", "date", "exec", "inherit", "ls", "merged", "sleeper", "stubborn"),
                names(markers), "the recording ran every child");

        assertReplaysWithoutChildren(rec, recorded, markers);
    }

    /**
     * A pool thread that waits for a child inside an event must leave the pool as a replay, which
     * never waits, leaves it: before, the JDK's wait compensated (a spare worker, not recorded,
     * ran the program's tasks) and replays diverged.
     */
    @Test
    void poolThreadsWaitingForChildrenReplay() throws IOException {
        Path markers = Files.createDirectory(tmp.resolve("markers"));
        Path rec = tmp.resolve("rec");
        Run recorded = Reprise.record(rec, corpus("corpus.process.PoolWaits", markers.toString()));
        assertEquals(0, recorded.status(), recorded::toString);
        StringBuilder expected = new StringBuilder();
        for (int round = 0; round < 4; round++) {
            expected.append("round ").append(round).append(": steps 29368690, exit 0, handle alive false\n");
        }
        assertEquals(expected.toString(), recorded.stdout(), recorded::toString);
        assertEquals(List.of("sleep-0", "sleep-1", "sleep-2", "sleep-3"), names(markers), "the recording ran every child");

        assertReplaysWithoutChildren(rec, recorded, markers);
    }

    /**
     * Recorded with an empty class cache, replayed with the cache the recording filled: the JDK
     * classes start-up instruments keep their instrumentation when the attached agent retransforms
     * one ({@code ArrayList}), in both, so the list's hash replays.
     */
    @Test
    void anAgentAttachedByAChildIsLoadedByTheReplay() throws IOException {
        Path marker = tmp.resolve("attacher-ran");
        Path rec = tmp.resolve("rec");
        cache = Map.of("REPRISE_CACHE_DIR", tmp.resolve("cache").toString());
        Run recorded = Reprise.record(rec, corpus("corpus.process.SelfAttach", marker.toString()), null, cache);
        assertEquals(0, recorded.status(), recorded::toString);
        assertTrue(recorded.stdout().matches("attacher exited 0\nagent options: stored by the agent\n"
                + "instrumentation: true, retransform supported true, this class modifiable true\n"
                + "from the boot class path: corpus\\.process\\.SelfAttach\\$Booted, loader null\n"
                + "after ArrayList's retransformation, a list hashes to -?\\d+\n"), recorded::toString);
        assertTrue(Files.exists(marker), "the recording ran the attacher");
        assertTrue(names(rec).stream().anyMatch(n -> n.matches("agent-[0-9a-f]{8}-\\d+\\.jar")),
                () -> "the recording keeps a copy of the agent's jar, which the program deleted: " + names(rec));
        assertTrue(names(rec).stream().anyMatch(n -> n.matches("appended-[0-9a-f]{8}-\\d+\\.jar")),
                () -> "the recording keeps a copy of the jar appended to the boot class path: " + names(rec));

        assertReplaysWithoutChildren(rec, recorded, marker.getParent());
    }

    /**
     * The program attaches to its own JVM ({@code -Djdk.attach.allowAttachSelf=true}, as Byte
     * Buddy's {@code ByteBuddyAgent.install()} does where it may), which signals this JVM and
     * speaks to its attach listener over a Unix socket. The attach's natives are events: a replay
     * signals no pid (the recorded one is another process's, or none, where it runs) and opens no
     * socket, and loads the agent where the recorded JVM loaded it. On JDK 17 the attach first
     * maps the target's performance data through jvmstat, given the recorded pid: the replay maps
     * its own JVM's.
     */
    @Test
    void anAgentAttachedInProcessIsLoadedByTheReplay() throws IOException {
        Path rec = tmp.resolve("rec");
        cache = Map.of("REPRISE_CACHE_DIR", tmp.resolve("cache").toString());
        List<String> command = new ArrayList<>(corpus("corpus.process.InProcessAttach"));
        command.add(1, "-Djdk.attach.allowAttachSelf=true");
        Run recorded = Reprise.record(rec, command, null, cache);
        assertEquals(0, recorded.status(), recorded::toString);
        assertEquals("the attached JVM's java.version is this one's: true\nagent options: loaded in process\n"
                + "instrumentation: true, this class modifiable true\n", recorded.stdout(), recorded::toString);
        assertReplaysWithoutChildren(rec, recorded, Files.createDirectories(tmp.resolve("markers")));
    }

    /**
     * Listing the machine's JVMs reads each one's performance data, mapped from its memory by the
     * pid: a replay, where those JVMs are gone, reads the copies the recording kept, and prints
     * the child's command line as the list showed it.
     */
    @Test
    void anotherJvmsPerformanceDataReplaysFromTheRecording() throws IOException {
        Path markers = Files.createDirectory(tmp.resolve("markers"));
        Path rec = tmp.resolve("rec");
        Run recorded = Reprise.record(rec, corpus("corpus.process.ListedJvms", markers.toString()));
        assertEquals(0, recorded.status(), recorded::toString);
        assertEquals("child says: ready\nlisted as: corpus.process.ListedJvms$Waiter " + markers
                + " listed-by-its-parent\nchild exited 0\n", recorded.stdout(), recorded::toString);
        assertEquals(List.of("waiter"), names(markers), "the recording ran the child");

        assertReplaysWithoutChildren(rec, recorded, markers);
    }

    /**
     * Replays with chaos seeds 1 to {@link #REPLAYS}, each in a network namespace of its own with
     * a PATH that holds no tool, and checks each printed what the recording printed, byte for byte,
     * and that no child touched a marker in {@code markers}.
     */
    private void assertReplaysWithoutChildren(Path rec, Run recorded, Path markers) throws IOException {
        Path noTools = Files.createDirectories(tmp.resolve("no-tools"));
        clear(markers);
        for (int seed = 1; seed <= Reprise.chaosReplays(REPLAYS); seed++) {
            List<String> cmd = new ArrayList<>(List.of("unshare", "-n"));
            cmd.addAll(Reprise.repriseCommand(List.of("replay", rec.toString(), "--chaos", Integer.toString(seed))));
            Map<String, String> env = new java.util.HashMap<>(cache);
            env.putAll(Map.of("PATH", noTools.toString(), "JAVA_HOME", System.getProperty("java.home")));
            Run replayed = Reprise.exec(cmd, null, env, null);
            int s = seed;
            assertEquals(recorded.stdout(), replayed.stdout(), () -> "stdout differs, chaos seed " + s + "\n" + replayed);
            assertEquals(recorded.stderr(), replayed.stderr(), () -> "stderr differs, chaos seed " + s + "\n" + replayed);
            assertEquals(recorded.status(), replayed.status(), () -> "status differs, chaos seed " + s + "\n" + replayed);
            assertEquals(List.of(), markerNames(markers), "the replay started no child");
        }
    }

    /** Removes the markers: the directory's files, but not the recording or the tool-less PATH. */
    private void clear(Path markers) throws IOException {
        for (String n : markerNames(markers)) {
            Files.delete(markers.resolve(n));
        }
    }

    private List<String> markerNames(Path markers) {
        List<String> found = new ArrayList<>();
        for (String n : names(markers)) {
            if (Files.isRegularFile(markers.resolve(n))) {
                found.add(n);
            }
        }
        return found;
    }

    private static List<String> names(Path dir) {
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
