package dev.reprise.tests;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A {@code reprise record} running in the background, for tests that interrupt it. Its output
 * goes to files, not pipes: the program writes to the same output and may outlive the
 * recorder, and a {@link Process}'s pipe is closed under its reader once the process ends.
 */
final class LiveRecording {
    private final Process recorder;
    private final Path out;
    private final Path err;
    /** The program's JVM, once seen. */
    private ProcessHandle program;

    private LiveRecording(Process recorder, Path out, Path err) {
        this.recorder = recorder;
        this.out = out;
        this.err = err;
    }

    /**
     * Starts {@code prefix reprise record -o DIR -- COMMAND}, {@code prefix} wrapping the recorder
     * (setsid); its output goes to {@code DIR.out} and {@code DIR.err}.
     */
    static LiveRecording start(List<String> prefix, Path dir, List<String> command) throws IOException {
        List<String> cmd = new ArrayList<>(prefix);
        cmd.addAll(Reprise.repriseCommand(List.of("record", "-o", dir.toString(), "--")));
        cmd.addAll(command);
        Path out = dir.resolveSibling(dir.getFileName() + ".out");
        Path err = dir.resolveSibling(dir.getFileName() + ".err");
        return new LiveRecording(new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile()).start(),
                out, err);
    }

    Process recorder() {
        return recorder;
    }

    /** The program's JVM, the recorder's child. */
    ProcessHandle program() {
        if (program == null) {
            program = recorder.descendants().filter(p -> p.info().command().orElse("").endsWith("java")).findFirst()
                    .orElseThrow(() -> new AssertionError("the recorder has no program running"));
        }
        return program;
    }

    /** Waits until the output holds {@code line} as a whole line, then {@code moreLines} lines more. */
    void awaitLine(String line, int moreLines) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
        while (true) {
            String s = "\n" + Files.readString(out);
            int at = s.indexOf("\n" + line + "\n");
            if (at >= 0 && s.substring(at).split("\n", -1).length > moreLines + 2) {
                program();
                return;
            }
            assertTrue(System.nanoTime() < deadline, () -> "no '" + line + "' from the program:\n" + tail(s));
            assertTrue(recorder.isAlive(), () -> "the recorder ended:\n" + tail(s));
            Thread.sleep(20);
        }
    }

    /** Waits until the output holds a whole line starting with {@code prefix}; returns the rest of it. */
    String awaitLineStarting(String prefix) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
        while (true) {
            String s = "\n" + Files.readString(out);
            int at = s.indexOf("\n" + prefix);
            int end = at < 0 ? -1 : s.indexOf('\n', at + 1);
            if (end >= 0) {
                return s.substring(at + 1 + prefix.length(), end);
            }
            assertTrue(System.nanoTime() < deadline, () -> "no line '" + prefix + "...' from the program:\n" + tail(s));
            assertTrue(recorder.isAlive(), () -> "the recorder ended:\n" + tail(s));
            Thread.sleep(20);
        }
    }

    /** Waits for the recorder and the program, which may outlive it; what the recorder's output files hold. */
    Run finish() throws Exception {
        assertTrue(recorder.waitFor(120, TimeUnit.SECONDS), "reprise record did not end");
        if (program != null) {
            program.onExit().get(120, TimeUnit.SECONDS);
        }
        return new Run(recorder.exitValue(), Files.readString(out), Files.readString(err));
    }

    /** Ends whatever is left, after a failed test. */
    void destroy() {
        if (program != null) {
            program.destroyForcibly();
        }
        recorder.descendants().forEach(ProcessHandle::destroyForcibly);
        recorder.destroyForcibly();
    }

    private static String tail(String s) {
        return s.length() > 2000 ? "..." + s.substring(s.length() - 2000) : s;
    }
}
