package dev.reprise.tests;

import static dev.reprise.tests.Reprise.corpus;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.lang.annotation.Annotation;
import java.lang.reflect.Modifier;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The standard protocol, for every corpus program whose class carries {@code corpus.Expect}:
 * where it says so, plain runs differ; recorded under each of its orders, the program exits with
 * the status it states; and every replay, each with another chaos seed, prints byte for byte
 * what the recording printed and exits with its status. Also checks that every corpus program is
 * run by some test.
 */
class CorpusTest {
    /** Three seeds each in the full run: enough to shake the timing ({@link Reprise#chaosReplays}). */
    private static final int CHAOS_REPLAYS = 3;

    @TempDir
    Path tmp;

    /** One annotated program: its class name and the elements of its {@code corpus.Expect}. */
    record Expectation(String program, List<String> orders, int status, boolean plainRunsDiffer) {
    }

    /** The corpus jar's programs (classes with a public static main) and the expectations of those annotated. */
    record Corpus(List<String> programs, List<Expectation> expectations) {
    }

    /**
     * One case for each annotated program and order to record under. The quick form records a
     * program of two orders under one: the programs take turns, in name order, and the system
     * property {@code reprise.tests.corpusHalf} (0 or 1) says which takes which, so that CI's two
     * passes, one with each, record every program under each of its orders once.
     */
    static Stream<Arguments> recordings() throws Exception {
        List<Expectation> expectations = scan().expectations();
        int half = Integer.getInteger("reprise.tests.corpusHalf", 0);
        List<Arguments> cases = new ArrayList<>();
        for (int i = 0; i < expectations.size(); i++) {
            Expectation e = expectations.get(i);
            List<String> orders = Reprise.FULL || e.orders().size() == 1 ? e.orders()
                    : List.of(e.orders().get((i + half) % e.orders().size()));
            orders.forEach(order -> cases.add(Arguments.of(e.program(), order, e.status())));
        }
        return cases.stream();
    }

    static Stream<String> nondeterministic() throws Exception {
        return scan().expectations().stream().filter(Expectation::plainRunsDiffer).map(Expectation::program);
    }

    @ParameterizedTest(name = "{0} under {1}")
    @MethodSource("recordings")
    void replaysMatchTheRecording(String program, String order, int status) {
        Path dir = tmp.resolve("rec");
        Run recorded = Reprise.record(dir, order, corpus(program));
        // Surefire reports a parameterized case by its index alone: each message names the case.
        String which = program + " under " + order;
        assertEquals(status, recorded.status(), () -> which + ": exit status of the recording\n" + recorded);
        try {
            Reprise.assertChaosReplaysMatch(dir, recorded, CHAOS_REPLAYS);
        } catch (AssertionError e) {
            throw new AssertionError(which + ": " + e.getMessage(), e);
        }
    }

    /**
     * One of up to ten plain runs differs from the first: two alone may agree by chance, and on a
     * loaded machine five runs of a four-thread race once all went the same way.
     */
    @ParameterizedTest(name = "{0} differs from run to run")
    @MethodSource("nondeterministic")
    void plainRunsDiffer(String program) {
        String first = Reprise.exec(corpus(program), null, Map.of(), null).stdout();
        String other = first;
        for (int run = 0; run < 9 && other.equals(first); run++) {
            other = Reprise.exec(corpus(program), null, Map.of(), null).stdout();
        }
        assertNotEquals(first, other, program + " should differ from run to run");
    }

    /**
     * Every corpus program is annotated or named, by its full class name, in a test source: a
     * program no test runs proves nothing and rots unnoticed.
     */
    @Test
    void everyProgramIsRun() throws Exception {
        String sources;
        try (Stream<Path> files = Files.walk(Reprise.ROOT.resolve("tests/src/test/java"))) {
            sources = files.filter(f -> f.toString().endsWith(".java")).map(Reprise::read)
                    .collect(Collectors.joining("\n"));
        }
        Corpus corpus = scan();
        List<String> annotated = corpus.expectations().stream().map(Expectation::program).toList();
        // \b, so that naming corpus.threads.RacyCache does not count for corpus.threads.Racy.
        List<String> unrun = corpus.programs().stream()
                .filter(p -> !annotated.contains(p) && !Pattern.compile(Pattern.quote(p) + "\\b").matcher(sources).find())
                .toList();
        assertEquals(List.of(), unrun,
                "corpus programs no test runs: annotate each with corpus.Expect, or run it in a test of its own");
    }

    /**
     * Reads the classes of the corpus jar the tests run, not those on the tests' class path (an
     * installed build of the corpus, which may be older): the platform loader as parent keeps them
     * apart, so {@code corpus.Expect} is this loader's too and is read by reflection.
     */
    static Corpus scan() throws Exception {
        List<String> names = new ArrayList<>();
        try (JarFile jar = new JarFile(Reprise.CORPUS_JAR.toFile())) {
            for (JarEntry entry : jar.stream().toList()) {
                String n = entry.getName();
                if (n.endsWith(".class") && !n.contains("$") && !n.endsWith("-info.class")) {
                    names.add(n.substring(0, n.length() - ".class".length()).replace('/', '.'));
                }
            }
        }
        URL[] urls = Arrays.stream(Reprise.corpusClassPath().split(java.io.File.pathSeparator))
                .map(e -> toUrl(Path.of(e))).toArray(URL[]::new);
        try (URLClassLoader loader = new URLClassLoader(urls, ClassLoader.getPlatformClassLoader())) {
            Class<? extends Annotation> expect = loader.loadClass("corpus.Expect").asSubclass(Annotation.class);
            List<String> programs = new ArrayList<>();
            List<Expectation> expectations = new ArrayList<>();
            for (String name : names.stream().sorted().toList()) {
                Class<?> c = Class.forName(name, false, loader);
                if (isProgram(c)) {
                    programs.add(name);
                }
                Annotation a = c.getAnnotation(expect);
                if (a != null) {
                    expectations.add(new Expectation(name, List.of((String[]) element(a, "orders")),
                            (int) element(a, "status"), (boolean) element(a, "plainRunsDiffer")));
                }
            }
            return new Corpus(programs, expectations);
        }
    }

    private static boolean isProgram(Class<?> c) {
        try {
            int modifiers = c.getDeclaredMethod("main", String[].class).getModifiers();
            return Modifier.isPublic(modifiers) && Modifier.isStatic(modifiers);
        } catch (NoSuchMethodException e) {
            return false;
        }
    }

    private static Object element(Annotation a, String name) throws ReflectiveOperationException {
        return a.annotationType().getMethod(name).invoke(a);
    }

    private static URL toUrl(Path p) {
        try {
            return p.toUri().toURL();
        } catch (java.net.MalformedURLException e) {
            throw new IllegalArgumentException(p.toString(), e);
        }
    }
}
