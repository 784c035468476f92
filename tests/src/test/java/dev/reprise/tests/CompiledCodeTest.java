package dev.reprise.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the JIT compilers make of the code Reprise rewrites: a method is compiled in a recording as
 * it is without one, not left to the interpreter, which would make the recording many times slower
 * for no reason a user could see. The compilers' verdicts come from {@code -XX:+PrintCompilation},
 * which the JVM writes to the program's standard output.
 */
class CompiledCodeTest {
    @TempDir
    Path tmp;

    /** The shapes of corpus.threads.StaticMonitors: loops, a throw out of the method, a catch inside it. */
    @Test
    void staticSynchronizedMethodsAreCompiledInARecording() {
        List<String> command = new ArrayList<>(Reprise.corpus("corpus.threads.StaticMonitors"));
        command.add(1, "-XX:+PrintCompilation");
        Run recorded = Reprise.record(tmp.resolve("rec"), command);
        assertEquals(0, recorded.status(), recorded::toString);
        assertTrue(recorded.stdout().contains("total 538200, weight 1200.0, found 133552, failed 600, bumps 200120, flips 1200\n"),
                recorded::toString);
        List<String> verdicts = recorded.stdout().lines().filter(l -> l.contains("corpus.threads.StaticMonitors::")).toList();
        assertTrue(verdicts.stream().anyMatch(l -> l.contains("StaticMonitors::bump ")), () -> "bump never compiled:\n" + verdicts);
        List<String> refused = verdicts.stream()
                .filter(l -> l.contains("COMPILE SKIPPED") || l.contains("not compilable")).toList();
        assertEquals(List.of(), refused);
    }
}
