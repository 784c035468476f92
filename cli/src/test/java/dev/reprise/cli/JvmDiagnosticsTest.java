package dev.reprise.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;

import org.junit.jupiter.api.Test;

/** Which of the recorded JVM options a replay leaves out, and what it tells the user. */
class JvmDiagnosticsTest {
    @Test
    void theFlightRecorderIsDroppedAndTheLogTurnedOffAfterTheRecordedOptions() {
        List<String> recorded = List.of("-Xmx1g", "-XX:StartFlightRecording=filename=x.jfr", "-Xlog:gc",
                "-XX:FlightRecorderOptions:stackdepth=128", "-cp", "app.jar");
        assertEquals(List.of("-Xmx1g", "-Xlog:gc", "-cp", "app.jar", "-Xlog:disable"), JvmDiagnostics.forReplay(recorded));
        assertEquals("the replay runs without the JVM's own log and flight recorder (-XX:StartFlightRecording=filename=x.jfr"
                + " -Xlog:gc -XX:FlightRecorderOptions:stackdepth=128): they describe the recording's JVM, not the program",
                JvmDiagnostics.replayNote(recorded));
    }

    @Test
    void theLogsAliasesAreNamedAndOtherOptionsAreNot() {
        assertEquals("the replay runs without the JVM's own log and flight recorder (-verbose -verbose:gc -Xloggc:gc.log):"
                + " they describe the recording's JVM, not the program",
                JvmDiagnostics.replayNote(List.of("-verbose", "-verbose:gc", "-Xloggc:gc.log", "-ea")));
        assertNull(JvmDiagnostics.replayNote(List.of("-ea", "-XX:+UseSerialGC", "-Xss1m", "-cp", "x")));
        assertEquals(List.of("-ea", "-Xlog:disable"), JvmDiagnostics.forReplay(List.of("-ea")));
    }
}
