package dev.reprise.agent.runtime.jdk;

/**
 * The part of a hidden class's name that is the same in every run: the JVM appends an address, and
 * a lambda's class a count, that differ between a recording and its replays.
 */
public final class HiddenClassNames {
    private HiddenClassNames() {
    }

    /** A hidden class's name without {@code /address} and a trailing {@code $count}. */
    public static String stem(String name) {
        int slash = name.indexOf('/');
        int end = slash < 0 ? name.length() : slash;
        int digits = end;
        while (digits > 0 && Character.isDigit(name.charAt(digits - 1))) {
            digits--;
        }
        boolean counted = digits < end && digits > 0 && name.charAt(digits - 1) == '$';
        return name.substring(0, counted ? digits - 1 : end);
    }
}
