package dev.reprise.core.config;

import java.util.ArrayList;
import java.util.List;

/**
 * The JVM options Reprise adds to the program's command line, in the order it adds them: a
 * renamed agent jar's {@code -Xbootclasspath/a:}, the agent itself, and {@link #METASPACE_ROOM}.
 * The program's views of its own command line (the runtime bean's arguments, its process's
 * {@code ProcessHandle.Info}) leave them out, as a plain run has none of them; a replay's JVM
 * has others again.
 */
public final class OwnJvmOptions {
    /**
     * Room for Reprise's own metadata: the JVM starts a concurrent collection the first time its
     * metaspace reaches {@code MetaspaceSize}, which Reprise's classes would otherwise make a
     * program reach that a plain run does not (docs/decisions/0005-metaspace-room.md).
     */
    public static final String METASPACE_ROOM = "-XX:MetaspaceSize=29m";
    private static final String BOOT_APPEND = "-Xbootclasspath/a:";

    private OwnJvmOptions() {
    }

    /**
     * {@code options} without Reprise's: the agent's option, the one whose options are
     * {@code agentOptions} (they name the recording, so no option of the program's has them),
     * with the metaspace option right after it and a boot class path append right before it.
     * Unchanged if the agent's option is not there.
     */
    public static List<String> without(List<String> options, String agentOptions) {
        String suffix = "=" + agentOptions;
        for (int i = 0; i < options.size(); i++) {
            String o = options.get(i);
            if ((o.startsWith("-agentlib:instrument=") || o.startsWith("-javaagent:")) && o.endsWith(suffix)) {
                int from = i > 0 && options.get(i - 1).startsWith(BOOT_APPEND) ? i - 1 : i;
                int to = i + 1 < options.size() && options.get(i + 1).equals(METASPACE_ROOM) ? i + 2 : i + 1;
                List<String> kept = new ArrayList<>(options.subList(0, from));
                kept.addAll(options.subList(to, options.size()));
                return kept;
            }
        }
        return options;
    }
}
