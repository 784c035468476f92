package dev.reprise.agent.ops.environment;

import java.util.List;

/**
 * The environment variables {@code record --redact-env} names: the program reads their real
 * values, the recording holds {@link #PLACEHOLDER} instead, and so a replay reads that.
 */
public final class RedactedEnv {
    public static final String PLACEHOLDER = "<redacted>";

    /** Globs: {@code *} any run of characters, {@code ?} any one. Set once, in premain, before the program runs. */
    private static List<String> globs = List.of();

    private RedactedEnv() {
    }

    public static void configure(List<String> names) {
        globs = List.copyOf(names);
    }

    /** What the recording keeps of variable {@code name}'s {@code value}. */
    static String logged(String name, String value) {
        if (value == null || name == null) {
            return value;
        }
        for (String glob : globs) {
            if (matches(glob, 0, name, 0)) {
                return PLACEHOLDER;
            }
        }
        return value;
    }

    static boolean matches(String glob, int g, String s, int i) {
        while (g < glob.length()) {
            char c = glob.charAt(g);
            if (c == '*') {
                for (int k = i; k <= s.length(); k++) {
                    if (matches(glob, g + 1, s, k)) {
                        return true;
                    }
                }
                return false;
            }
            if (i == s.length() || c != '?' && c != s.charAt(i)) {
                return false;
            }
            g++;
            i++;
        }
        return i == s.length();
    }
}
