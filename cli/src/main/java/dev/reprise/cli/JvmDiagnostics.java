package dev.reprise.cli;

import java.util.ArrayList;
import java.util.List;

/**
 * What the JVM reports of itself, apart from the program: its log ({@code -Xlog}, and the
 * {@code -verbose} options that are its aliases; warnings go there too), printed by the JVM on
 * the program's stdout or stderr with the uptime and the collector's figures, and the flight
 * recorder, which writes a file of its own. Both describe the recording's JVM; a replay's JVM
 * would print other lines and write the file again. So a replay runs with the log off (an
 * {@code -Xlog:disable} after the recorded options, which the JVM applies last) and without the
 * flight recorder's options, and says so when the recorded command asked for either.
 */
final class JvmDiagnostics {
    private static final List<String> FLIGHT_RECORDER = List.of("-XX:StartFlightRecording", "-XX:FlightRecorderOptions");
    /** {@code -Xloggc:FILE}, {@code -verbose} alone and {@code -verbose:gc}, {@code :class} and the rest are the log's aliases. */
    private static final List<String> LOG = List.of("-Xlog", "-Xloggc", "-verbose");

    private JvmDiagnostics() {
    }

    /** The recorded JVM options as a replay runs them. */
    static List<String> forReplay(List<String> recorded) {
        List<String> out = new ArrayList<>();
        for (String option : recorded) {
            if (!startsWithAny(option, FLIGHT_RECORDER)) {
                out.add(option);
            }
        }
        out.add("-Xlog:disable");
        return out;
    }

    /** What to tell the user, or null: the recorded command asked the JVM for its log or a flight recording. */
    static String replayNote(List<String> recorded) {
        List<String> named = new ArrayList<>();
        for (String option : recorded) {
            if (startsWithAny(option, LOG) || startsWithAny(option, FLIGHT_RECORDER)) {
                named.add(option);
            }
        }
        return named.isEmpty() ? null : "the replay runs without the JVM's own log and flight recorder ("
                + String.join(" ", named) + "): they describe the recording's JVM, not the program";
    }

    private static boolean startsWithAny(String option, List<String> prefixes) {
        for (String p : prefixes) {
            if (option.equals(p) || option.startsWith(p + "=") || option.startsWith(p + ":")) {
                return true;
            }
        }
        return false;
    }
}
