package dev.reprise.agent.instrument;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** When start-up may put the JDK classes loaded before the agent in place from the cache. */
class LoadedClassesTest {
    private static final String REPRISE = "-javaagent:/opt/reprise/reprise-agent.jar=mode=record";

    @Test
    void keptBytesAreUsedWhenNothingElseMayHaveChangedTheJdksClasses() {
        assertTrue(LoadedClasses.keptBytesUsable(new String[] {"-Xbootclasspath/a:/opt/reprise/reprise-agent.jar", REPRISE, "-Xmx1g"}));
        assertTrue(LoadedClasses.keptBytesUsable(new String[] {REPRISE, "-agentlib:jdwp=transport=dt_socket,server=y"}));
        // The flight recorder starts after premain: its retransformations must start from Reprise's bytes.
        assertTrue(LoadedClasses.keptBytesUsable(new String[] {REPRISE, "-XX:StartFlightRecording=duration=10s"}));
        assertTrue(LoadedClasses.keptBytesUsable(new String[] {REPRISE, "-XX:+FlightRecorder"}));
        assertTrue(LoadedClasses.keptBytesUsable(new String[] {"-agentlib:instrument=/opt/reprise/reprise-agent.jar=mode=record"}),
                "Reprise started as the library behind -javaagent");
    }

    @Test
    void anotherAgentAPatchedModuleOrVerifyingTheJdkMeansInstrumentingWhatIsFound() {
        for (String other : new String[] {"-javaagent:/tmp/other.jar", "-agentpath:/tmp/libprofiler.so",
            "-agentlib:hprof", "-agentlib:instrument=/tmp/other.jar", "--patch-module=java.base=/tmp/patch", "-Xverify:all", "-XX:+BytecodeVerificationLocal"}) {
            assertFalse(LoadedClasses.keptBytesUsable(new String[] {other, REPRISE}), other);
        }
        assertFalse(LoadedClasses.keptBytesUsable(new String[0]), "Reprise not started as an agent");
    }
}
