package dev.reprise.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The JVM options Reprise adds to the program's command: room in metaspace for its own classes,
 * so that they do not bring the program's first metadata collection forward; an option the user
 * gives wins. And those a user may give: every class verified; the JVM's own log and a flight
 * recording.
 */
class JvmOptionsTest {
    private static final long MIB = 1024 * 1024;

    @TempDir
    Path tmp;

    @Test
    void theProgramGetsMetaspaceRoomForRepriseUnlessItAsksForItsOwn() throws Exception {
        Path app = tmp.resolve("app.jar");
        Programs.buildMain(app, "System.out.println(java.lang.management.ManagementFactory.getPlatformMXBean("
                + "com.sun.management.HotSpotDiagnosticMXBean.class).getVMOption(\"MetaspaceSize\").getValue());");
        Run plain = Reprise.exec(List.of(Reprise.JAVA, "-cp", app.toString(), "app.Main"), null, Map.of(), null);
        assertEquals(0, plain.status(), plain::toString);
        long byDefault = Long.parseLong(plain.stdout().strip());

        Path rec = tmp.resolve("rec");
        Run recorded = Reprise.record(rec, List.of(Reprise.JAVA, "-cp", app.toString(), "app.Main"));
        assertEquals(0, recorded.status(), recorded::toString);
        assertEquals(byDefault + 8 * MIB, Long.parseLong(recorded.stdout().strip()), recorded::toString);
        Reprise.assertReplaysMatch(rec, recorded, 2);

        Path own = tmp.resolve("own");
        Run asked = Reprise.record(own, List.of(Reprise.JAVA, "-XX:MetaspaceSize=64m", "-cp", app.toString(), "app.Main"));
        assertEquals(0, asked.status(), asked::toString);
        assertEquals(64 * MIB, Long.parseLong(asked.stdout().strip()), asked::toString);
        Reprise.assertReplaysMatch(own, asked, 2);
    }

    /**
     * Reprise's options are its own: the program's views of its command line (the runtime bean's
     * JVM arguments, its process's arguments and command line) are a plain run's, in the recording
     * and in every replay, whose JVM has other options of Reprise's again.
     */
    @Test
    void theProgramSeesItsCommandLineWithoutReprisesOptions() throws Exception {
        Path app = tmp.resolve("app.jar");
        Programs.buildMain(app, "var info = ProcessHandle.current().info();"
                + "System.out.println(java.lang.management.ManagementFactory.getRuntimeMXBean().getInputArguments());"
                + "System.out.println(java.util.Arrays.toString(info.arguments().orElseThrow()));"
                + "System.out.println(info.commandLine().orElseThrow());");
        List<String> command = List.of(Reprise.JAVA, "-Xmx200m", "-Dprobe=x", "-cp", app.toString(), "app.Main", "an-argument");
        Run plain = Reprise.exec(command, null, Map.of(), null);
        assertEquals(0, plain.status(), plain::toString);
        assertTrue(plain.stdout().startsWith("[-Xmx200m, -Dprobe=x]\n[-Xmx200m, -Dprobe=x, -cp, "), plain::toString);

        Path rec = tmp.resolve("rec");
        Run recorded = Reprise.record(rec, command);
        assertEquals(plain.stdout(), recorded.stdout(), recorded::toString);
        Reprise.assertReplaysMatch(rec, recorded, 2);
    }

    /**
     * With {@code -Xverify:all} the JVM verifies the JDK classes Reprise rewrites, the unbracketed
     * copies of {@code ConcurrentHashMap}'s methods among them (corpus.juc.AloneThenShared), and
     * start-up does not redefine classes from bytes kept by the run before, made without it.
     */
    @Test
    void aProgramWhoseClassesAreAllVerifiedIsRecordedAndReplayed() {
        Run before = Reprise.record(tmp.resolve("before"), Reprise.corpus("corpus.juc.AloneThenShared"));
        assertEquals(0, before.status(), before::toString);
        List<String> verified = new ArrayList<>(Reprise.corpus("corpus.juc.AloneThenShared"));
        verified.add(1, "-Xverify:all");
        Path rec = tmp.resolve("verified");
        Run recorded = Reprise.record(rec, verified);
        assertEquals(0, recorded.status(), recorded::toString);
        assertTrue(recorded.stdout().startsWith("alone: size 307, sum "), recorded::toString);
        Reprise.assertReplaysMatch(rec, recorded, 2);
    }

    /**
     * The JVM's own log and a flight recording started from the command line report on the
     * recording's JVM: the recording runs with both (the log on stdout, the flight recorder's file
     * written, with its events on the program's file writes), and a replay runs without them, says
     * so, prints the program's own output alone, byte for byte, and writes no flight recording.
     */
    @Test
    void theJvmsOwnLogAndFlightRecordingAreNotReplayed() throws Exception {
        Path flight = tmp.resolve("flight.jfr");
        List<String> command = new ArrayList<>(Reprise.corpus("corpus.juc.Locks"));
        List<String> diagnostics = List.of("-Xlog:gc*:stdout", "-XX:StartFlightRecording=settings=profile,filename=" + flight);
        command.addAll(1, diagnostics);
        Path rec = tmp.resolve("rec");
        Run recorded = Reprise.record(rec, command);
        assertEquals(0, recorded.status(), recorded::toString);
        assertTrue(recorded.stdout().contains("][info][gc"), recorded::toString);
        assertTrue(Files.size(flight) > 0, "the flight recording of the recorded run");
        Files.delete(flight);
        String programOut = recorded.stdout().lines().filter(l -> !l.startsWith("["))
                .collect(Collectors.joining("\n", "", "\n"));
        assertTrue(programOut.contains(" put 0\n"), recorded::toString);

        for (int seed = 1; seed <= Reprise.chaosReplays(3); seed++) {
            Run replayed = Reprise.replay(rec, "--chaos", Integer.toString(seed));
            assertEquals(recorded.status(), replayed.status(), replayed::toString);
            assertEquals(programOut, replayed.stdout(), replayed::toString);
            assertEquals(recorded.programStderr(), replayed.programStderr(), replayed::toString);
            assertTrue(replayed.stderr().startsWith("reprise: the replay runs without the JVM's own log and flight recorder ("
                    + String.join(" ", diagnostics) + ")"), replayed::toString);
            assertTrue(Files.notExists(flight), "a replay wrote a flight recording");
        }
    }
}
