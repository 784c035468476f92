package dev.reprise.tests;

import static dev.reprise.tests.Reprise.corpus;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A replay that cannot follow its recording stops with exit status 3 and a report, never with
 * output the recorded run did not produce: an edited recording, a rebuilt program, a program
 * that does less than it did when recorded.
 */
class DivergenceTest {
    @TempDir
    Path tmp;

    @Test
    void editedArgumentsInTheManifestStopTheReplayBeforeTheProgramRuns() throws Exception {
        Path rec = tmp.resolve("rec");
        Run recorded = Reprise.record(rec, corpus("corpus.single.Exits", "exit", "7"));
        assertEquals(7, recorded.status(), recorded::toString);
        editManifest(rec, "\"7\"", "\"8\"");

        Run replay = Reprise.replay(rec);
        assertEquals(3, replay.status(), replay::toString);
        assertEquals("", replay.stdout(), "nothing printed by a replay that cannot be faithful");
        assertReport(replay, "different main class or arguments");
        assertTrue(replay.stderr().contains("expected: corpus.single.Exits exit 7"), replay::toString);
        assertTrue(replay.stderr().contains("actual:   corpus.single.Exits exit 8"), replay::toString);
    }

    @Test
    void anotherMainClassInTheManifestStopsTheReplay() throws Exception {
        Path rec = tmp.resolve("rec");
        Reprise.record(rec, corpus("corpus.single.Exits", "exit", "7"));
        editManifest(rec, "corpus.single.Exits", "corpus.single.Clocks");

        Run replay = Reprise.replay(rec);
        assertEquals(3, replay.status(), replay::toString);
        assertReport(replay, "expected: corpus.single.Exits exit 7");
    }

    @Test
    void programRebuiltWithOneMoreClockCallDiverges() throws Exception {
        Run replay = replayRebuilt("System.out.println(\"t \" + System.nanoTime());",
                "long a = System.nanoTime(); System.out.println(\"t \" + System.nanoTime());");
        assertEquals(3, replay.status(), replay::toString);
        assertEquals("", replay.stdout(), replay::toString);
        assertReport(replay, "time.nanos");
        assertTrue(replay.stderr().contains("at app.Main.main(Main.java:"), replay::toString);
    }

    /**
     * A write to stdout is checked before it is made: a line the recorded run did not print never
     * reaches the terminal, not even when the report is written (the program's buffered output is
     * not flushed then).
     */
    @Test
    void programRebuiltToPrintAnotherLineStopsBeforePrintingIt() throws Exception {
        Run replay = replayRebuilt("System.out.println(\"first\"); System.err.println(\"apples\");",
                "System.out.println(\"first\"); System.err.println(\"pears\");");
        assertEquals(3, replay.status(), replay::toString);
        assertEquals("first\n", replay.stdout(), replay::toString);
        assertTrue(replay.stderr().startsWith("reprise: replay diverged"), replay::toString);
        assertFalse(replay.stderr().contains("pears"), replay::toString);
        assertReport(replay, "expected: file.out.write");
    }

    @Test
    void programRebuiltToDoLessDivergesWhenItEndsEarly() throws Exception {
        Path jar = tmp.resolve("app.jar");
        String line = "System.out.println(\"t \" + System.nanoTime());";
        Programs.buildMain(jar, line + " " + line);
        Path rec = tmp.resolve("rec");
        Run recorded = Reprise.record(rec, Programs.command(jar));
        assertEquals(0, recorded.status(), recorded::toString);

        Programs.buildMain(jar, line);
        Run replay = Reprise.replay(rec);
        assertEquals(3, replay.status(), replay::toString);
        assertTrue(recorded.stdout().startsWith(replay.stdout()), "what the replay printed was recorded");
        assertReport(replay, "ended before using all its recorded events");
    }

    /**
     * Relaxed events are counted, not written, so a program rebuilt to make the same number of
     * actions in another order may replay past the change. Recorded under {@code --log-relaxed},
     * the replay stops at the first action that differs and names both sites.
     */
    @Test
    void underLogRelaxedTheFirstDifferingActionStopsTheReplay() throws Exception {
        Path jar = tmp.resolve("app.jar");
        String counter = "java.util.concurrent.atomic.AtomicInteger a = new java.util.concurrent.atomic.AtomicInteger();\n";
        Programs.buildMain(jar, counter + "a.incrementAndGet();\nSystem.out.println(\"a \" + a.get());");
        Path rec = tmp.resolve("rec");
        List<String> args = new ArrayList<>(List.of("record", "--log-relaxed", "-o", rec.toString(), "--"));
        args.addAll(Programs.command(jar));
        Run recorded = Reprise.reprise(args, null, Map.of(), null);
        assertEquals(0, recorded.status(), recorded::toString);
        assertEquals("a 1\n", recorded.stdout(), recorded::toString);
        Reprise.assertReplaysMatch(rec, recorded, 2);

        Programs.buildMain(jar, counter + "int v = a.get();\na.incrementAndGet();\nSystem.out.println(\"a \" + (v + 1));");
        Run replay = Reprise.replay(rec);
        assertEquals(3, replay.status(), replay::toString);
        assertEquals("", replay.stdout(), replay::toString);
        assertReport(replay, "expected: sync.action.relaxed at java.util.concurrent.atomic.AtomicInteger.incrementAndGet:");
        assertTrue(replay.stderr().contains("actual:   sync.action at java.util.concurrent.atomic.AtomicInteger.get:"),
                replay::toString);
        assertTrue(replay.stderr().contains("at app.Main.main(Main.java:5)"), replay::toString);
    }

    /**
     * A program rebuilt with one more action than recorded diverges at that action, which finds
     * the next written event instead. Where the thread's relaxed events were counted, the report
     * says the first difference may be earlier and how to find it; under {@code --log-relaxed} it
     * has no need to.
     */
    @Test
    void aReportAfterCountedEventsPointsToLogRelaxed() throws Exception {
        Path jar = tmp.resolve("app.jar");
        String counter = "java.util.concurrent.atomic.AtomicInteger a = new java.util.concurrent.atomic.AtomicInteger();\n";
        String print = "System.out.println(\"t \" + System.nanoTime());";
        for (boolean logRelaxed : new boolean[] {false, true}) {
            Programs.buildMain(jar, counter + "a.incrementAndGet();\n" + print);
            Path rec = tmp.resolve("rec-" + logRelaxed);
            List<String> args = new ArrayList<>(List.of("record", "-o", rec.toString()));
            if (logRelaxed) {
                args.add("--log-relaxed");
            }
            args.add("--");
            args.addAll(Programs.command(jar));
            Run recorded = Reprise.reprise(args, null, Map.of(), null);
            assertEquals(0, recorded.status(), recorded::toString);

            Programs.buildMain(jar, counter + "a.incrementAndGet();\na.get();\n" + print);
            Run replay = Reprise.replay(rec);
            assertEquals(3, replay.status(), replay::toString);
            assertReport(replay, "actual:   sync.action at java.util.concurrent.atomic.AtomicInteger.get:");
            assertTrue(replay.stderr().contains("expected: time.nanos"), replay::toString);
            assertEquals(!logRelaxed, replay.stderr().contains("reprise record --log-relaxed"), replay::toString);
        }
    }

    /**
     * While main runs alone, its actions are counted in its own stream, and a class initializer's
     * in the initializer's, even when main runs it: a program rebuilt to make one more action after
     * the initializer diverges at main's next written event.
     */
    @Test
    void mainAloneCountsItsActionsApartFromAnInitializersItRuns() throws Exception {
        Path jar = tmp.resolve("app.jar");
        Path rec = tmp.resolve("rec");
        buildCounting(jar, 20);
        Run recorded = Reprise.record(rec, Programs.command(jar));
        assertEquals(0, recorded.status(), recorded::toString);
        assertEquals("init 0\nmain 0\n", recorded.stdout(), recorded::toString);
        Run inspected = Reprise.reprise(List.of("inspect", "--json", rec.toString()), null, Map.of(), null);
        List<String> streams = new ArrayList<>();
        Json.parse(inspected.stdout()).getAsJsonArray("threads")
                .forEach(t -> streams.add(t.getAsJsonObject().get("path").getAsString()));
        assertTrue(streams.contains("init-app.Main$Init"), () -> "the initializer's own stream: " + streams);
        Reprise.assertReplaysMatch(rec, recorded, 3);

        buildCounting(jar, 21);
        Run replay = Reprise.replay(rec);
        assertEquals(3, replay.status(), replay::toString);
        assertEquals("init 0\n", replay.stdout(), "nothing printed past the divergence");
        assertReport(replay, "expected: file.out.write");
    }

    /**
     * A replay that can make no progress is reported within seconds, each thread named by its
     * path as {@code inspect} lists it, with where it is and what a thread waited for last did.
     * The program is rebuilt to hold the monitor its worker takes next while it waits for the
     * worker: for a turn the worker never reaches (a latch's countdown), or for real (a join).
     */
    @ParameterizedTest
    @CsvSource({
        "done.await(), waits for thread 1.1 to complete its synchronization event",
        "w.join(), waits in the program",
    })
    void aStuckReplayIsReportedWithinSecondsNamingThreadsByPath(String wait, String mainState) throws Exception {
        Path jar = tmp.resolve("app.jar");
        String threads = "Object m = new Object();\n"
                + "java.util.concurrent.CountDownLatch done = new java.util.concurrent.CountDownLatch(1);\n"
                + "Thread w = new Thread(() -> { synchronized (m) { } done.countDown(); });\n";
        String body = "try { %s } catch (InterruptedException e) { }\nSystem.out.println(\"waited\");";
        Programs.buildMain(jar, threads + String.format(body, "synchronized (m) { } w.start(); " + wait + ";"));
        Path rec = tmp.resolve("rec");
        Run recorded = Reprise.record(rec, Programs.command(jar));
        assertEquals("waited\n", recorded.stdout(), recorded::toString);

        Programs.buildMain(jar, threads + String.format(body, "synchronized (m) { w.start(); " + wait + "; }"));
        long start = System.nanoTime();
        Run replay = Reprise.replay(rec);
        long seconds = java.util.concurrent.TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start);
        assertEquals(3, replay.status(), replay::toString);
        assertEquals("", replay.stdout(), replay::toString);
        assertTrue(seconds < 30, () -> "reported after " + seconds + " s\n" + replay);
        String err = replay.stderr();
        assertTrue(err.startsWith("reprise: replay is stuck: no thread has made progress for 5 s; threads:\n    thread 1: last did "),
                replay::toString);
        assertTrue(err.contains(mainState), replay::toString);
        // The frames as the JDK prints them: JDK 17 names the application class loader ("app//"), JDK 25 does not.
        assertTrue(err.matches("(?s).*\n        at (app//)?app\\.Main\\.main\\(Main\\.java:\\d+\\)\n    thread 1\\.1: .*"), replay::toString);
        assertTrue(err.matches("(?s).*\n    thread 1\\.1: has made no event yet, and is blocked on a monitor\n"
                + "        at (app//)?app\\.Main\\.lambda\\$main\\$0\\(.*"), replay::toString);
        assertFalse(err.contains("#"), () -> "threads named by path, not by index\n" + replay);
    }

    /** A program whose main, alone, reads a volatile 30 times, then {@code after} times once a class initializer read it 50 times. */
    private static void buildCounting(Path jar, int after) throws Exception {
        String source = "package app;\npublic final class Main {\n"
                + "    static volatile int shared;\n"
                + "    static final class Init {\n"
                + "        static final int SUM;\n"
                + "        static { int s = 0; for (int i = 0; i < 50; i++) { s += shared; } SUM = s; }\n"
                + "    }\n"
                + "    public static void main(String[] args) {\n"
                + "        int x = 0;\n"
                + "        for (int i = 0; i < 30; i++) { x += shared; }\n"
                + "        System.out.println(\"init \" + Init.SUM);\n"
                + "        for (int i = 0; i < " + after + "; i++) { x += shared; }\n"
                + "        System.out.println(\"main \" + x);\n"
                + "    }\n}\n";
        Path classes = Programs.compile(jar.resolveSibling(jar.getFileName() + ".build"), Map.of("app/Main.java", source));
        Programs.jar(jar, classes, "app");
    }

    /** Records a program with main's body {@code recordedBody}, rebuilds it with {@code rebuiltBody}, and replays the recording. */
    private Run replayRebuilt(String recordedBody, String rebuiltBody) throws Exception {
        Path jar = tmp.resolve("app.jar");
        Programs.buildMain(jar, recordedBody);
        Path rec = tmp.resolve("rec");
        Run recorded = Reprise.record(rec, Programs.command(jar));
        assertEquals(0, recorded.status(), recorded::toString);
        Programs.buildMain(jar, rebuiltBody);
        return Reprise.replay(rec);
    }

    private static void editManifest(Path rec, String from, String to) throws Exception {
        Reprise.editManifest(rec, text -> {
            assertTrue(text.contains(from), text);
            return text.replace(from, to);
        });
    }

    /**
     * The report names the thread and event, says how the replay differs ({@code detail}), shows a
     * Java stack, and the command that opens a debugger at that event.
     */
    private static void assertReport(Run replay, String detail) {
        String err = replay.stderr();
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("reprise: replay diverged on thread 1 at event (\\d+): ").matcher(err);
        assertTrue(m.find(), replay::toString);
        assertTrue(err.contains(detail), () -> "says " + detail + "\n" + replay);
        assertTrue(err.contains("Java stack:\n    at "), replay::toString);
        assertTrue(err.contains(" --debug --stop-at 1:" + m.group(1) + "\n"), replay::toString);
    }
}
