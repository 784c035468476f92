package dev.reprise.cli;

import java.util.List;

/** The names {@code record --redact-env} takes: a variable's name, or a glob of names ({@code *}, {@code ?}). */
final class EnvNames {
    private EnvNames() {
    }

    /** Throws {@link IllegalArgumentException} with a usage message for a name no variable can have. */
    static void check(List<String> names) {
        for (String n : names) {
            if (n.isEmpty() || n.indexOf('=') >= 0 || n.indexOf('\0') >= 0) {
                throw new IllegalArgumentException("--redact-env wants a variable's name or a glob such as '*_TOKEN', not '"
                        + n + "'");
            }
        }
    }
}
