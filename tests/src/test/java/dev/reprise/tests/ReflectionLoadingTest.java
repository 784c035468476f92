package dev.reprise.tests;

import static dev.reprise.tests.Reprise.assertReplaysMatch;
import static dev.reprise.tests.Reprise.record;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Orders the JVM draws per run: reflected members, JDK module service providers, Set.of and
 * Map.of iteration. Programs run without CDS (-Xshare:off), where those orders vary most.
 */
class ReflectionLoadingTest {
    private static final int PLAIN_RUNS = 8;

    @TempDir
    Path tmp;

    private static List<String> noCds(String mainClass) {
        return List.of(Reprise.JAVA, "-Xshare:off", "-cp", Reprise.CORPUS_JAR.toString(), mainClass);
    }

    /** Plain runs differ, two recordings agree with each other, and every replay matches. */
    @ParameterizedTest
    @ValueSource(strings = {"corpus.reflect.Services", "corpus.reflect.ImmutableSets"})
    void ordersDrawnAtBootAreTheSameInEveryRecordedRun(String program) {
        Set<String> plain = new HashSet<>();
        for (int i = 0; i < PLAIN_RUNS && plain.size() < 2; i++) {
            plain.add(Reprise.exec(noCds(program), null, Map.of(), null).stdout());
        }
        assertEquals(2, plain.size(), "plain runs should differ from run to run");
        assertRecordedAlikeAndReplayed(program);
    }

    /**
     * HotSpot's member order varies in a minority of runs only: rather than hunt for a differing
     * plain run, check the recorded order is the sorted one.
     */
    @Test
    void reflectedMembersComeSortedBySignature() {
        Run recorded = assertRecordedAlikeAndReplayed("corpus.reflect.MemberOrder");
        assertTrue(recorded.stdout().startsWith(
                "declared: alpha0 beta0 delta0 epsilon1 epsilon1 eta0 gamma0 main1 theta0 zeta0\n"
                        + "constructors: 0 1 1 2\n"
                        + "public: alpha beta delta epsilon epsilon eta gamma main theta zeta equals getClass hashCode"),
                recorded::toString);
    }

    /** The packages listed are the recording's, without Reprise's own. */
    @Test
    void bootPackagesAreListedAsRecorded() {
        Run recorded = record(tmp.resolve("rec"), noCds("corpus.reflect.BootPackages"));
        assertEquals(0, recorded.status(), recorded::toString);
        assertTrue(recorded.stdout().startsWith("java.lang listed: true\nreprise's packages: []\n"), recorded::toString);
        Reprise.assertChaosReplaysMatch(tmp.resolve("rec"), recorded, 3);
    }

    @Test
    void classPathProvidersKeepServicesFileOrder() {
        Run recorded = assertRecordedAlikeAndReplayed("corpus.reflect.Services");
        assertTrue(recorded.stdout().startsWith("greeters: hello bonjour\n"), recorded::toString);
    }

    /**
     * Instrumenting a class reads the class files of the classes whose fields it uses. Read from a
     * signed jar through the class loader, they made the JDK verify the jar's signature during the
     * transformation, loading java.time classes the JVM then left uninstrumented: in replays,
     * {@code ZoneOffset}'s cache ordered actions the recording did not have.
     */
    @Test
    void instrumentingAgainstASignedJarLeavesTheJdkInstrumented() throws Exception {
        Path classes = Programs.compile(tmp.resolve("build"), Map.of(
                "lib/Holder.java", "package lib;\npublic final class Holder {\n    public volatile int value;\n}\n",
                "app/Main.java", """
                        package app;
                        public final class Main {
                            public static void main(String[] args) {
                                if (args.length > 0) {
                                    new lib.Holder().value = 1; // never runs, but instrumenting Main reads Holder
                                }
                                for (int i = -4; i <= 4; i++) {
                                    System.out.println(java.time.ZoneOffset.ofTotalSeconds(i * 1800));
                                }
                            }
                        }
                        """));
        Path lib = tmp.resolve("lib.jar");
        Path app = tmp.resolve("app.jar");
        Programs.jar(lib, classes, "lib");
        Programs.sign(lib);
        Programs.jar(app, classes, "app");
        Run recorded = record(tmp.resolve("rec"),
                List.of(Reprise.JAVA, "-cp", app + java.io.File.pathSeparator + lib, "app.Main"));
        assertEquals(0, recorded.status(), recorded::toString);
        assertTrue(recorded.stdout().startsWith("-02:00\n-01:30\n"), recorded::toString);
        assertReplaysMatch(tmp.resolve("rec"), recorded, 3);
    }

    /**
     * The resources of one name, iterated partly at the look-up and the rest later from another
     * thread, each read: every replay finds and reads the same. (That a replay from a filled
     * cache walks unlogged is {@code ClassCacheTest.aResourceWalkReplaysFromTheCacheItsRecordingFilled}.)
     */
    @Test
    void resourcesAreFoundAsTheProgramIteratesThem() throws Exception {
        Path classes = Programs.compile(tmp.resolve("build"), Map.of("app/Main.java", """
                package app;
                import java.net.URL;
                import java.util.Enumeration;
                public final class Main {
                    public static void main(String[] args) throws Exception {
                        Enumeration<URL> all = ClassLoader.getSystemClassLoader().getResources("greeting.txt");
                        System.out.println("first: " + read(all.nextElement()));
                        Thread rest = new Thread(() -> {
                            while (all.hasMoreElements()) {
                                System.out.println("then: " + read(all.nextElement()));
                            }
                        });
                        rest.start();
                        rest.join();
                    }

                    private static String read(URL url) {
                        try (var in = url.openStream()) {
                            return new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
                        } catch (java.io.IOException e) {
                            throw new java.io.UncheckedIOException(e);
                        }
                    }
                }
                """));
        List<String> path = new java.util.ArrayList<>();
        for (String greeting : List.of("hello", "bonjour", "hola")) {
            Path jar = tmp.resolve(greeting + ".jar");
            Programs.jar(jar, classes, "app");
            try (java.nio.file.FileSystem fs = java.nio.file.FileSystems.newFileSystem(jar)) {
                java.nio.file.Files.writeString(fs.getPath("greeting.txt"), greeting);
            }
            path.add(jar.toString());
        }
        Run recorded = record(tmp.resolve("rec"),
                List.of(Reprise.JAVA, "-cp", String.join(java.io.File.pathSeparator, path), "app.Main"));
        assertEquals(0, recorded.status(), recorded::toString);
        assertEquals("first: hello\nthen: bonjour\nthen: hola\n", recorded.stdout(), recorded::toString);
        assertReplaysMatch(tmp.resolve("rec"), recorded, 3);
    }

    private Run assertRecordedAlikeAndReplayed(String program) {
        Run first = record(tmp.resolve("rec1"), noCds(program));
        assertEquals(0, first.status(), first::toString);
        Run second = record(tmp.resolve("rec2"), noCds(program));
        assertEquals(first.stdout(), second.stdout(), "two recordings should print the same");
        assertReplaysMatch(tmp.resolve("rec1"), first, 3);
        return first;
    }
}
