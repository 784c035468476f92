package dev.reprise.core.config;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The character encodings a JVM fixes from its locale as it starts, before any agent runs: the
 * default charset, and the console streams' encodings, which {@code System.out} and {@code
 * System.err} keep. A replay on a machine of another locale ({@code LANG=C} where the recording
 * had UTF-8) would encode the program's output otherwise, and diverge at its first non-ASCII
 * character; so the recording keeps them (jvm.properties) and the replay's JVM is started with
 * them. The encoding of file names ({@code sun.jnu.encoding}) cannot be set so, and stays the
 * replaying machine's.
 */
public final class Encodings {
    /** JDK 17 names the console's encodings {@code sun.std*}; JDK 19 and later {@code std*}. */
    public static final List<String> KEYS = List.of("file.encoding", "sun.stdout.encoding", "sun.stderr.encoding",
            "stdout.encoding", "stderr.encoding");

    private Encodings() {
    }

    /** The replay JVM's options that give it the recorded JVM's {@code jvm} encodings. */
    public static List<String> replayOptions(Map<String, String> jvm) {
        List<String> options = new ArrayList<>();
        if (jvm == null) {
            return options;
        }
        for (String key : KEYS) {
            String value = jvm.get(key);
            if (value != null && !value.isEmpty()) {
                options.add("-D" + key + "=" + value);
            }
        }
        return options;
    }
}
