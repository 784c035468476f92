package dev.reprise.cli;

import java.util.List;

/**
 * The JVM options of a recorded command that a replay refuses: those that run a command
 * ({@code -XX:OnError}, {@code -XX:OnOutOfMemoryError}), load a native agent ({@code -agentlib},
 * {@code -agentpath}, {@code -Xrun}: code that runs outside the recording, and jdwp opens a
 * port), or read more options from a file ({@code @file}, {@code -XX:Flags}, {@code -XX:VMOptionsFile}),
 * which the recording does not hold. A recording may come from someone else; its command line
 * must not make a replay do more than run the recorded program. A {@code -javaagent} is kept:
 * a Java agent is loaded from a local jar like the program's class path, and is recorded and
 * replayed with it.
 */
final class RecordedOptions {
    private static final List<String> REFUSED_PREFIXES = List.of("-XX:OnError", "-XX:OnOutOfMemoryError", "-agentlib:",
            "-agentpath:", "-Xrun", "@", "-XX:Flags=", "-XX:VMOptionsFile=");

    private RecordedOptions() {
    }

    /** Throws {@link IllegalArgumentException} naming the first refused option of {@code jvmOptions}. */
    static void check(List<String> jvmOptions) {
        for (String option : jvmOptions) {
            for (String refused : REFUSED_PREFIXES) {
                if (option.startsWith(refused)) {
                    throw new IllegalArgumentException("the JVM option '" + option + "' would run a command, native code or"
                            + " options the recording does not hold; replay refuses it");
                }
            }
        }
    }
}
