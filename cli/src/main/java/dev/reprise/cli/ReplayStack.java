package dev.reprise.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A replay's threads get four times the recorded stack. A program that catches a stack overflow
 * gets it on replay where the recording's came, thrown by Reprise at that recorded call; the
 * replay's own stack must not run out first, and its frames may be larger than the recording's
 * were (the JIT, which makes them smaller, compiles on its own schedule): an interpreted frame of
 * a method with a few long locals is about three times its compiled one, and twice the stack ran
 * out first in replays on JDK 25 (corpus.single.OverflowBetweenEvents). Only the touched part of
 * a stack takes memory.
 */
final class ReplayStack {
    /** The JVM's default thread stack on 64-bit Linux, in KiB. */
    private static final long DEFAULT_KIB = 1024;
    /** How many times the recorded stack a replay's threads get. */
    static final int FACTOR = 4;

    private ReplayStack() {
    }

    /** {@code recorded} without its stack size options, and with one for {@value #FACTOR} times the size they gave. */
    static List<String> enlarged(List<String> recorded) {
        long kib = DEFAULT_KIB;
        List<String> out = new ArrayList<>();
        for (String option : recorded) {
            long size = stackKib(option);
            if (size > 0) {
                kib = size;
            } else {
                out.add(option);
            }
        }
        out.add("-Xss" + FACTOR * kib + "k");
        return out;
    }

    /** The stack size an option sets, in KiB; 0 if it sets none (or one this does not read, which is then kept). */
    static long stackKib(String option) {
        try {
            if (option.startsWith("-Xss")) {
                return bytes(option.substring(4)) / 1024;
            }
            if (option.startsWith("-XX:ThreadStackSize=")) {
                return bytes(option.substring("-XX:ThreadStackSize=".length()) + "k") / 1024;
            }
        } catch (NumberFormatException e) {
            return 0;
        }
        return 0;
    }

    private static long bytes(String size) {
        String s = size.toLowerCase(Locale.ROOT);
        long unit = 1;
        if (s.endsWith("k")) {
            unit = 1024;
        } else if (s.endsWith("m")) {
            unit = 1024 * 1024;
        } else if (s.endsWith("g")) {
            unit = 1024L * 1024 * 1024;
        }
        if (unit != 1) {
            s = s.substring(0, s.length() - 1);
        }
        return Long.parseLong(s) * unit;
    }
}
