package dev.reprise.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Runs the packaged {@code reprise} command, as a user does, on corpus programs, with the JDK that
 * runs the tests. Every run has a timeout: a hang is a failure, not a stuck build.
 */
public final class Reprise {
    public static final Path ROOT = Path.of(System.getProperty("reprise.root", "..")).toAbsolutePath().normalize();
    public static final Path CLI_JAR = ROOT.resolve("cli/target/reprise-cli.jar");
    public static final Path AGENT_JAR = ROOT.resolve("agent/target/reprise-agent.jar");
    public static final Path CORPUS_JAR = ROOT.resolve("corpus/target/reprise-corpus.jar");
    public static final String JAVA = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    private static final long TIMEOUT_SECONDS = 120;

    private Reprise() {
    }

    /** The corpus's libraries from Maven Central (Caffeine), copied there by the corpus build. */
    public static final Path CORPUS_LIB = ROOT.resolve("corpus/target/lib");

    /** {@code java -cp corpus.jar:LIBS MAIN ARGS}: the command after {@code --}. */
    public static List<String> corpus(String mainClass, String... args) {
        List<String> cmd = new ArrayList<>(List.of(JAVA, "-cp", corpusClassPath(), mainClass));
        cmd.addAll(List.of(args));
        return cmd;
    }

    /** The corpus jar, then the jars of {@link #CORPUS_LIB} in name order. */
    public static String corpusClassPath() {
        List<String> entries = new ArrayList<>(List.of(CORPUS_JAR.toString()));
        if (Files.isDirectory(CORPUS_LIB)) {
            try (Stream<Path> libs = Files.list(CORPUS_LIB)) {
                libs.filter(p -> p.getFileName().toString().endsWith(".jar")).map(Path::toString).sorted()
                        .forEach(entries::add);
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }
        return String.join(File.pathSeparator, entries);
    }

    public static Run record(Path dir, List<String> command) {
        return record(dir, command, null, Map.of());
    }

    public static Run record(Path dir, List<String> command, byte[] stdin, Map<String, String> env) {
        List<String> args = new ArrayList<>(List.of("record", "-o", dir.toString(), "--"));
        args.addAll(command);
        return reprise(args, stdin, env, null);
    }

    /** {@code reprise record --order ORDER -o DIR -- COMMAND}, {@code ORDER} rto or to. */
    public static Run record(Path dir, String order, List<String> command) {
        List<String> args = new ArrayList<>(List.of("record", "--order", order, "-o", dir.toString(), "--"));
        args.addAll(command);
        return reprise(args, null, Map.of(), null);
    }

    public static Run replay(Path dir, String... options) {
        List<String> args = new ArrayList<>(List.of("replay", dir.toString()));
        args.addAll(List.of(options));
        return reprise(args, null, Map.of(), null);
    }

    /** The reprise command as its launcher runs it: the CLI jar on a quick-starting JVM. */
    public static List<String> cliCommand() {
        return List.of(JAVA, "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Dreprise.agent=" + AGENT_JAR, "-jar",
                CLI_JAR.toString());
    }

    public static Run reprise(List<String> args, byte[] stdin, Map<String, String> env, Path cwd) {
        return exec(repriseCommand(args), stdin, env, cwd);
    }

    /** The packaged command line, as the launcher runs it: {@code java ... -jar CLI ARGS}. */
    public static List<String> repriseCommand(List<String> args) {
        List<String> cmd = new ArrayList<>(cliCommand());
        cmd.addAll(args);
        return cmd;
    }

    public static Run exec(List<String> cmd, byte[] stdin, Map<String, String> env, Path cwd) {
        return exec(cmd, stdin, env, cwd, TIMEOUT_SECONDS);
    }

    /** {@link #exec(List, byte[], Map, Path)} with its own timeout, for the few runs that take minutes. */
    public static Run exec(List<String> cmd, byte[] stdin, Map<String, String> env, Path cwd, long timeoutSeconds) {
        ProcessBuilder pb = new ProcessBuilder(cmd);
        pb.environment().putAll(env);
        if (cwd != null) {
            pb.directory(cwd.toFile());
        }
        try {
            Process p = pb.start();
            CompletableFuture<byte[]> out = drain(p.getInputStream());
            CompletableFuture<byte[]> err = drain(p.getErrorStream());
            try (OutputStream in = p.getOutputStream()) {
                if (stdin != null) {
                    in.write(stdin);
                }
            } catch (IOException e) {
                // the program did not read all its input
            }
            if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly();
                throw new AssertionError("timed out after " + timeoutSeconds + "s: " + cmd);
            }
            return new Run(p.exitValue(), new String(out.get(), StandardCharsets.UTF_8),
                    new String(err.get(), StandardCharsets.UTF_8));
        } catch (IOException | InterruptedException | java.util.concurrent.ExecutionException e) {
            throw new AssertionError("cannot run " + cmd, e);
        }
    }

    /**
     * Runs each blocking reader on its own daemon thread. The common pool will not do: JDK 25 uses it
     * even with a single worker (two cores), where a second reader would wait for the first to end.
     */
    static final Executor READERS = task -> {
        Thread t = new Thread(task, "process-reader");
        t.setDaemon(true);
        t.start();
    };

    static CompletableFuture<byte[]> drain(InputStream in) {
        return CompletableFuture.supplyAsync(() -> {
            ByteArrayOutputStream buf = new ByteArrayOutputStream();
            try (in) {
                in.transferTo(buf);
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
            return buf.toByteArray();
        }, READERS);
    }

    /**
     * Whether the suite runs in full ({@code -Dreprise.tests.full=true}): every corpus program under
     * each of its orders, every determinism check with all the chaos replays it asks for. The
     * default is the quick form CI runs (README).
     */
    public static final boolean FULL = Boolean.getBoolean("reprise.tests.full");

    /** The quick form's chaos replays per determinism check: the least that has both a timing shake and a second try. */
    private static final int QUICK_CHAOS_REPLAYS = 2;

    /**
     * How many chaos replays a determinism check makes: {@code wanted} in the full run; in the
     * quick form at most {@value #QUICK_CHAOS_REPLAYS}, or fewer when the system property
     * {@code reprise.tests.chaosReplays} caps it (CI's pass on the newer JDK). Never fewer than one.
     */
    public static int chaosReplays(int wanted) {
        int cap = FULL ? wanted : Integer.getInteger("reprise.tests.chaosReplays", QUICK_CHAOS_REPLAYS);
        return Math.max(1, Math.min(wanted, cap));
    }

    /**
     * Replays {@code dir} {@code times} times (with a chaos seed on every other run) and asserts
     * each replay printed exactly what the recording printed and exited with its status.
     */
    public static void assertReplaysMatch(Path dir, Run recorded, int times) {
        // One plain replay and at least one with chaos.
        int replays = Math.min(times, 1 + chaosReplays(times - 1));
        for (int i = 0; i < replays; i++) {
            Run replayed = i % 2 == 0 ? replay(dir) : replay(dir, "--chaos", Integer.toString(1000 + i));
            assertEquals(recorded.stdout(), replayed.stdout(), () -> "stdout differs in replay\n" + replayed);
            assertEquals(recorded.programStderr(), replayed.programStderr(), () -> "stderr differs in replay\n" + replayed);
            assertEquals(recorded.status(), replayed.status(), () -> "exit status differs in replay\n" + replayed);
        }
    }

    /**
     * Replays {@code dir} with chaos seeds 1 to {@code seeds} and asserts each replay printed exactly
     * what the recording printed and exited with its status.
     */
    public static void assertChaosReplaysMatch(Path dir, Run recorded, int seeds) {
        for (int seed = 1; seed <= chaosReplays(seeds); seed++) {
            Run replayed = replay(dir, "--chaos", Integer.toString(seed));
            int s = seed;
            assertEquals(recorded.stdout(), replayed.stdout(), () -> "stdout differs, chaos seed " + s + "\n" + replayed);
            assertEquals(recorded.programStderr(), replayed.programStderr(), () -> "stderr differs, seed " + s + "\n" + replayed);
            assertEquals(recorded.status(), replayed.status(), () -> "status differs, seed " + s + "\n" + replayed);
        }
    }

    public static String read(Path p) {
        try {
            return Files.readString(p);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /**
     * Replaces {@code rec}'s manifest with {@code bytes} and seals it as the recorder does
     * ({@code manifest.sha256}, {@code sha256sum}'s line): what someone handing over a crafted
     * recording would do.
     */
    public static void rewriteManifest(Path rec, byte[] bytes) {
        try {
            Files.write(rec.resolve("manifest.json"), bytes);
            String sum = java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256").digest(bytes));
            Files.writeString(rec.resolve("manifest.sha256"), sum + "  manifest.json\n");
        } catch (IOException | java.security.NoSuchAlgorithmException e) {
            throw new AssertionError(e);
        }
    }

    /** {@link #rewriteManifest(Path, byte[])} with the manifest's text changed by {@code edit}. */
    public static void editManifest(Path rec, java.util.function.UnaryOperator<String> edit) {
        String before = read(rec.resolve("manifest.json"));
        String after = edit.apply(before);
        assertEquals(false, before.equals(after), "the edit changes the manifest");
        rewriteManifest(rec, after.getBytes(StandardCharsets.UTF_8));
    }

    /** A copy of the recording {@code from} at {@code to}, to damage. */
    public static Path copyRecording(Path from, Path to) throws IOException {
        try (Stream<Path> files = Files.walk(from)) {
            for (Path p : files.toList()) {
                Files.copy(p, to.resolve(from.relativize(p).toString()));
            }
        }
        return to;
    }

    /** Deletes the directory {@code dir} and all in it. */
    public static void deleteTree(Path dir) throws IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path p : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
