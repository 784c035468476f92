package dev.reprise.agent.ops.environment;

import java.util.Arrays;
import java.util.List;

import dev.reprise.core.config.OwnJvmOptions;

/**
 * The program's command line as a plain run has it: without the JVM options Reprise added
 * ({@link OwnJvmOptions}), which a recording would show the program and its replays show other
 * ones of. Set once in premain, before the program runs; read by the hooks that record the
 * command line (the runtime bean's arguments, the process's {@code ProcessHandle.Info}).
 */
public final class OwnCommandLine {
    /** The agent's options, as premain got them; published by the start of the program's main thread. */
    private static String agentOptions = "";

    private OwnCommandLine() {
    }

    public static void configure(String agentOptions) {
        OwnCommandLine.agentOptions = agentOptions == null ? "" : agentOptions;
    }

    static List<String> without(List<String> options) {
        return OwnJvmOptions.without(options, agentOptions);
    }

    static String[] without(String[] arguments) {
        return without(Arrays.asList(arguments)).toArray(new String[0]);
    }
}
