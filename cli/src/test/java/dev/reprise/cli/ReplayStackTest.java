package dev.reprise.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;

import org.junit.jupiter.api.Test;

/** The stack a replay's threads get: twice what the recorded options gave, or twice the JVM's default. */
class ReplayStackTest {
    @Test
    void theRecordedStackSizeIsQuadrupledAndItsOptionsReplaced() {
        assertEquals(List.of("-ea", "-cp", "app.jar", "-Xss8192k"),
                ReplayStack.enlarged(List.of("-ea", "-Xss512k", "-cp", "app.jar", "-Xss2m")));
        assertEquals(List.of("-Xss2048k"), ReplayStack.enlarged(List.of("-XX:ThreadStackSize=512")));
        assertEquals(List.of("-Xmx1g", "-Xss4096k"), ReplayStack.enlarged(List.of("-Xmx1g")));
    }

    @Test
    void anOptionThatDoesNotParseIsKept() {
        assertEquals(List.of("-Xssbig", "-Xss4096k"), ReplayStack.enlarged(List.of("-Xssbig")));
    }
}
