package bench;

/**
 * Marks on stderr the span of a workload that {@code reprise bench} times besides the whole
 * process: main from its first statement to its last, the span DaCapo's harness reports for an
 * iteration. JVM start-up and exit, and with them Reprise's start-up and final flush, fall
 * outside it. The bench notes when each mark arrives through the pipe; the program's own clocks
 * would not do, since a replay returns the recorded times. {@code cli/.../bench/TimedSpan} looks
 * for these lines' exact text.
 */
public final class Timed {
    private Timed() {
    }

    public static void begin() {
        System.err.println("bench: main begins");
    }

    public static void end() {
        System.err.println("bench: main ends");
    }
}
