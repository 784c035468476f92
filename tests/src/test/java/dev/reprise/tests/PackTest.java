package dev.reprise.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.jar.Attributes;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A recording replays where the program's classes are gone once {@code reprise pack} copied them
 * into it, as on another machine; before that, a replay that cannot find them says so and how to
 * pack, instead of a divergence the missing main class would look like.
 */
class PackTest {
    @TempDir
    Path tmp;

    @Test
    void aPackedRecordingReplaysWithoutTheProgramsClasses() throws IOException {
        Path work = Files.createDirectories(tmp.resolve("work"));
        Path app = Files.createDirectories(work.resolve("app"));
        Files.copy(Reprise.CORPUS_JAR, app.resolve("corpus.jar"));
        Path rec = tmp.resolve("rec");
        // A relative class path with a wildcard, as a launcher script gives it.
        Run recorded = Reprise.reprise(List.of("record", "-o", rec.toString(), "--", Reprise.JAVA, "-cp", "app/*",
                "corpus.single.Finalizers"), null, Map.of(), work);
        assertEquals(0, recorded.status(), recorded::toString);

        Path elsewhere = Files.createDirectories(tmp.resolve("elsewhere"));
        Path gone = tmp.resolve("gone");
        Files.move(app, gone);
        Run unpacked = Reprise.reprise(List.of("replay", rec.toString()), null, Map.of(), elsewhere);
        assertEquals(2, unpacked.status(), unpacked::toString);
        assertEquals("", unpacked.stdout(), unpacked::toString);
        assertTrue(unpacked.stderr().contains("reprise: cannot replay " + rec + ": the program's classes are not here: app/*"),
                unpacked::toString);
        assertTrue(unpacked.stderr().contains("run: reprise pack " + rec), unpacked::toString);

        Run failed = Reprise.reprise(List.of("pack", rec.toString()), null, Map.of(), elsewhere);
        assertEquals(2, failed.status(), failed::toString);
        Files.move(gone, app);
        Run packed = Reprise.reprise(List.of("pack", rec.toString()), null, Map.of(), elsewhere);
        assertEquals(0, packed.status(), packed::toString);

        Files.move(app, gone);
        Files.delete(work);
        for (int seed = 1; seed <= Reprise.chaosReplays(3); seed++) {
            Run replayed = Reprise.reprise(List.of("replay", rec.toString(), "--chaos", Integer.toString(seed)), null, Map.of(),
                    elsewhere);
            assertEquals(recorded.stdout(), replayed.stdout(), replayed::toString);
            assertEquals(recorded.programStderr(), replayed.programStderr(), replayed::toString);
            assertEquals(recorded.status(), replayed.status(), replayed::toString);
        }
        try (var files = Files.list(elsewhere)) {
            assertEquals(List.of(), files.toList(), "a replay writes nothing where it runs");
        }
    }

    /**
     * A jar of nothing but a manifest whose {@code Class-Path} names the program's jar beside it,
     * as test runners launch: packing it packs what it names.
     */
    @Test
    void aManifestsClassPathIsPackedWithItsJar() throws IOException {
        Path work = Files.createDirectories(tmp.resolve("work"));
        Files.createDirectories(work.resolve("lib"));
        Files.copy(Reprise.CORPUS_JAR, work.resolve("lib/corpus.jar"));
        Manifest manifest = new Manifest();
        manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        manifest.getMainAttributes().put(Attributes.Name.CLASS_PATH, "lib/corpus.jar");
        try (JarOutputStream jar = new JarOutputStream(Files.newOutputStream(work.resolve("pathing.jar")), manifest)) {
            jar.flush();
        }
        Path rec = tmp.resolve("rec");
        // An option with a value before the class path, which is no main class.
        Run recorded = Reprise.reprise(List.of("record", "-o", rec.toString(), "--", Reprise.JAVA, "--add-opens",
                "java.base/java.lang=ALL-UNNAMED", "-cp", "pathing.jar", "corpus.single.Finalizers"), null, Map.of(), work);
        assertEquals(0, recorded.status(), recorded::toString);
        Run packed = Reprise.reprise(List.of("pack", rec.toString()), null, Map.of(), tmp);
        assertEquals(0, packed.status(), packed::toString);
        Files.move(work, tmp.resolve("gone"));
        Run replayed = Reprise.reprise(List.of("replay", rec.toString(), "--chaos", "1"), null, Map.of(), tmp);
        assertEquals(recorded.stdout(), replayed.stdout(), replayed::toString);
        assertEquals(recorded.status(), replayed.status(), replayed::toString);
    }
}
