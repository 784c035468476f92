package dev.reprise.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;

import dev.reprise.core.config.OwnJvmOptions;

/**
 * How the agent joins the program's command: as the java agent library with no module option for
 * a class-path program, so that a JDK 17 JVM maps its archived module graph; as {@code -javaagent}
 * where the root modules may lack {@code java.instrument}; with {@code -Xbootclasspath/a} only for
 * a renamed jar, which its manifest's {@code Boot-Class-Path} does not name.
 */
class JavaCommandTest {
    private static final Path AGENT = Path.of("/opt/reprise/reprise-agent.jar");

    @Test
    void aClassPathProgramGetsTheAgentLibraryAndNoBootClassPathOption() {
        assertEquals(List.of("java", "-agentlib:instrument=/opt/reprise/reprise-agent.jar=mode=record",
                        OwnJvmOptions.METASPACE_ROOM, "-Xmx1g", "-cp", "app.jar", "app.Main", "x"),
                withAgent(AGENT, "java", "-Xmx1g", "-cp", "app.jar", "app.Main", "x"));
        assertEquals(List.of("java", "-agentlib:instrument=/opt/reprise/reprise-agent.jar=mode=record",
                        OwnJvmOptions.METASPACE_ROOM, "-jar", "app.jar", "-m"),
                withAgent(AGENT, "java", "-jar", "app.jar", "-m"));
    }

    @Test
    void aMainModuleOrALimitedModuleSetGetsJavaagent() {
        assertEquals(List.of("java", "-javaagent:/opt/reprise/reprise-agent.jar=mode=record",
                        OwnJvmOptions.METASPACE_ROOM, "-p", "mods", "-m", "app/app.Main"),
                withAgent(AGENT, "java", "-p", "mods", "-m", "app/app.Main"));
        assertEquals("-javaagent:/opt/reprise/reprise-agent.jar=mode=record",
                withAgent(AGENT, "java", "--limit-modules", "java.base", "-cp", "app.jar", "app.Main").get(1));
    }

    @Test
    void aRenamedAgentJarIsPutOnTheBootClassPath() {
        assertEquals(List.of("java", "-Xbootclasspath/a:/tmp/before.jar", "-agentlib:instrument=/tmp/before.jar=mode=record",
                        OwnJvmOptions.METASPACE_ROOM, "-cp", "app.jar", "app.Main"),
                withAgent(Path.of("/tmp/before.jar"), "java", "-cp", "app.jar", "app.Main"));
    }

    private static List<String> withAgent(Path agent, String... command) {
        return JavaCommand.parse(List.of(command)).withAgent("java", agent, "mode=record", List.of());
    }
}
