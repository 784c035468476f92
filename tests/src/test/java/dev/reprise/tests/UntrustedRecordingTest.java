package dev.reprise.tests;

import static dev.reprise.tests.Reprise.corpus;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;

import com.google.gson.GsonBuilder;
import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A recording may come from someone else, sealed and well formed: its replay runs the local JDK
 * of the recorded version, never an executable the recording names, and refuses recorded JVM
 * options that would run a command or native code.
 */
class UntrustedRecordingTest {
    @TempDir
    static Path shared;
    static Path pristine;
    static Run recorded;

    @TempDir
    Path tmp;

    @BeforeAll
    static void recordOnce() {
        pristine = shared.resolve("rec");
        recorded = Reprise.record(pristine, corpus("corpus.single.Clocks"));
        assertEquals(0, recorded.status(), recorded::toString);
    }

    /** A script named java, where the manifest says the program's java was, is not run: the local java replays. */
    @Test
    void theRecordedExecutableIsNotRun() throws IOException {
        Path marker = tmp.resolve("ran");
        Path java = script(tmp.resolve("bin/java"), marker);
        Path rec = copy();
        editCommand(rec, command -> command.set(0, java.toString()));
        Run replayed = Reprise.replay(rec);
        assertEquals(0, replayed.status(), replayed::toString);
        assertEquals(recorded.stdout(), replayed.stdout());
        assertFalse(Files.exists(marker), "the recorded executable ran");
    }

    @Test
    void recordedOptionsThatRunCommandsOrNativeCodeAreRefused() throws IOException {
        Path marker = tmp.resolve("ran");
        Path argFile = Files.writeString(tmp.resolve("options"), "-XX:OnError=touch " + marker);
        for (String option : List.of("-XX:OnError=touch " + marker, "-XX:OnOutOfMemoryError=touch " + marker,
                "-agentlib:jdwp=transport=dt_socket,server=y,suspend=n,address=127.0.0.1:0", "-agentpath:" + tmp.resolve("x.so"),
                "-Xrunjdwp:transport=dt_socket", "@" + argFile, "-XX:VMOptionsFile=" + argFile, "-XX:Flags=" + argFile)) {
            Path rec = copy();
            editCommand(rec, command -> command.add(1, option));
            Run replayed = Reprise.replay(rec);
            assertEquals(4, replayed.status(), replayed::toString);
            assertEquals("", replayed.stdout(), replayed::toString);
            assertEquals("reprise: " + rec.resolve("manifest.json") + ": recorded command unusable: the JVM option '" + option
                    + "' would run a command, native code or options the recording does not hold; replay refuses it\n",
                    replayed.stderr());
            Reprise.deleteTree(rec);
        }
        assertFalse(Files.exists(marker));
    }

    /**
     * JAVA_HOME names a JDK whose release file says another version, and none of the recorded
     * version is installed where the replay looks: refused before anything runs.
     */
    @Test
    void aLocalJdkOfAnotherVersionIsRefused() throws IOException {
        Path home = fakeJdk();
        Path marker = tmp.resolve("ran");
        Path nowhere = tmp.resolve("no-jdks");
        String version = Json.manifest(pristine).getAsJsonObject("jvm").get("java.version").getAsString();
        Run replayed = Reprise.reprise(List.of("replay", pristine.toString()), null,
                Map.of("JAVA_HOME", home.toString(), "REPRISE_JDKS", nowhere.toString()), null);
        assertEquals(2, replayed.status(), replayed::toString);
        assertTrue(replayed.stderr().startsWith("reprise: cannot replay " + pristine + ": the recording was made with Java "
                + version + " ("), replayed::toString);
        assertTrue(replayed.stderr().contains(home.resolve("bin/java") + " is Java 1.2.3 (Nobody), and no JDK of the recorded"
                + " version is installed in " + nowhere + ": set JAVA_HOME to one"), replayed::toString);
        assertEquals(1, replayed.stderr().lines().count(), replayed::toString);
        assertFalse(Files.exists(marker));

        Run noJava = Reprise.reprise(List.of("replay", pristine.toString()), null, Map.of("JAVA_HOME", tmp.toString()), null);
        assertEquals(2, noJava.status(), noJava::toString);
        assertEquals("reprise: JAVA_HOME is " + tmp + ", which has no bin/java\n", noJava.stderr());
    }

    /**
     * JAVA_HOME names another version, and a JDK of the recorded one is installed among others
     * (this test's own, beside the machine's other JDKs): the replay runs that one, says so, and
     * matches.
     */
    @Test
    void anInstalledJdkOfTheRecordedVersionReplays() throws IOException {
        Path home = fakeJdk();
        Path installed = Path.of(System.getProperty("java.home")).toRealPath();
        Run replayed = Reprise.reprise(List.of("replay", pristine.toString()), null,
                Map.of("JAVA_HOME", home.toString(), "REPRISE_JDKS", installed.getParent().toString()), null);
        assertEquals(0, replayed.status(), replayed::toString);
        assertEquals(recorded.stdout(), replayed.stdout());
        assertTrue(replayed.stderr().startsWith("reprise: replaying with "), replayed::toString);
        assertTrue(replayed.stderr().contains(" as recorded (" + home.resolve("bin/java") + " is Java 1.2.3 (Nobody))"),
                replayed::toString);
        assertFalse(Files.exists(tmp.resolve("ran")));
    }

    /** A JDK home whose release file says Java 1.2.3 and whose java is a script that leaves tmp/ran behind. */
    private Path fakeJdk() throws IOException {
        Path home = tmp.resolve("jdk");
        script(home.resolve("bin/java"), tmp.resolve("ran"));
        Files.writeString(home.resolve("release"), "IMPLEMENTOR=\"Nobody\"\nJAVA_VERSION=\"1.2.3\"\n");
        return home;
    }

    /** An executable script that leaves {@code marker} behind if it runs. */
    private static Path script(Path file, Path marker) throws IOException {
        Files.createDirectories(file.getParent());
        Files.writeString(file, "#!/bin/sh\ntouch '" + marker + "'\necho 'not the JDK'\n");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwx------"));
        return file;
    }

    private static void editCommand(Path rec, java.util.function.Consumer<List<String>> edit) {
        Reprise.editManifest(rec, text -> {
            JsonObject m = JsonParser.parseString(text).getAsJsonObject();
            List<String> command = new java.util.ArrayList<>(m.getAsJsonArray("command").asList().stream()
                    .map(e -> e.getAsString()).toList());
            edit.accept(command);
            JsonArray array = new JsonArray();
            command.forEach(array::add);
            m.add("command", array);
            return new GsonBuilder().setPrettyPrinting().create().toJson(m);
        });
    }

    private Path copy() throws IOException {
        return Reprise.copyRecording(pristine, tmp.resolve("rec"));
    }
}
