package dev.reprise.cli.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.ProcessBuilder.Redirect;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.stream.Stream;

import dev.reprise.cli.ProgramIo;
import dev.reprise.cli.RaceProfile;
import dev.reprise.core.config.Order;

/**
 * Runs one workload in every mode: warm-up iterations, then measured ones, each running the modes
 * round-robin (plain, record TO, record RTO, replay TO, replay RTO) so that drift in the machine's
 * speed hits all modes alike. Every run's output is checked: a recording must print what the plain
 * run printed, a replay what its recording printed, with the same exit status; otherwise the run
 * is a failure and is not timed. A failing run keeps its recording and output for a post-mortem.
 * Each run is timed twice: the process from its start to its exit, and the workload's main
 * ({@link TimedSpan}), the span DaCapo's harness reports and the performance anchors were measured on.
 */
final class Harness {
    private static final long PLAIN_TIMEOUT_NANOS = TimeUnit.MINUTES.toNanos(10);

    private final Recorder recorder;
    private final List<String> javaPrefix;
    private final Path work;
    private final boolean quick;
    private final int warmUps;
    private final int runs;
    private final Consumer<String> progress;

    Harness(Recorder recorder, List<String> javaPrefix, Path work, boolean quick, int warmUps, int runs,
            Consumer<String> progress) {
        this.recorder = recorder;
        this.javaPrefix = javaPrefix;
        this.work = work;
        this.quick = quick;
        this.warmUps = warmUps;
        this.runs = runs;
        this.progress = progress;
    }

    List<Run> run(Workload w) throws Exception {
        List<String> command = new ArrayList<>(javaPrefix);
        command.add(w.mainClass());
        command.addAll(w.args(quick));
        Path dir = Files.createDirectories(work.resolve(w.name()));
        if (w.threads()) {
            learnRaces(w, command, dir);
        }
        List<Run> out = new ArrayList<>();
        for (int i = 0; i < warmUps + runs; i++) {
            boolean warmUp = i < warmUps;
            Map<Mode, Run> done = new EnumMap<>(Mode.class);
            for (Mode m : Mode.values()) {
                Run r = runOnce(w, m, i, warmUp, command, dir, done);
                done.put(m, r);
                out.add(r);
                progress.accept(String.format("%s %s %d/%d %-10s %6.2f s%s", w.name(), warmUp ? "warm-up" : "run",
                        warmUp ? i + 1 : i - warmUps + 1, warmUp ? warmUps : runs, m.label(), r.seconds(),
                        r.ok() ? "" : "  FAILED: " + r.failure()));
            }
            for (Mode m : Mode.values()) {
                if (m.record() && done.get(m).ok() && done.get(replayOf(m)).ok()) {
                    Trees.delete(recording(dir, m, i));
                }
            }
        }
        return out;
    }

    /**
     * A multi-threaded workload's first recordings, under RTO, learn the plain fields its threads
     * race on, as a user's would ({@link RaceProfile}), until one finds nothing new; every
     * recording after them, TO ones included, orders them. Not timed, and not kept. With the
     * profile learned already (an earlier bench on the same cache), it is one recording more.
     */
    private void learnRaces(Workload w, List<String> command, Path dir) throws Exception {
        Path learn = dir.resolve("learn-races");
        boolean more = true;
        for (int looked = 1; more && looked <= RaceProfile.LEARNING_RECORDINGS; looked++) {
            Trees.delete(learn);
            int status = recorder.record(learn, Order.RTO, w.orderedFields(), command,
                    new ProgramIo(Redirect.DISCARD, Redirect.DISCARD, p -> { }));
            more = RaceProfile.foundUnordered(learn);
            Trees.delete(learn);
            progress.accept(String.format("%s learning its races: record RTO exited with status %d%s", w.name(), status,
                    more ? ", found some" : ""));
        }
    }

    private static Mode replayOf(Mode record) {
        return record == Mode.RECORD_TO ? Mode.REPLAY_TO : Mode.REPLAY_RTO;
    }

    private Run runOnce(Workload w, Mode m, int i, boolean warmUp, List<String> command, Path dir, Map<Mode, Run> done)
            throws Exception {
        String stem = slug(m) + "-" + i;
        Path out = dir.resolve(stem + ".out");
        Path err = dir.resolve(stem + ".err");
        long timeout = m == Mode.PLAIN ? PLAIN_TIMEOUT_NANOS
                : TimeUnit.SECONDS.toNanos(30) + 10 * done.get(Mode.PLAIN).wallNanos();
        ProcessWatch[] watch = new ProcessWatch[1];
        TimedSpan[] span = new TimedSpan[1];
        ProgramIo io = new ProgramIo(Redirect.to(out.toFile()), Redirect.PIPE, p -> {
            watch[0] = ProcessWatch.start(p, timeout);
            span[0] = TimedSpan.start(p.getErrorStream(), err);
        });
        long start = System.nanoTime();
        int status;
        if (m == Mode.PLAIN) {
            Process p = new ProcessBuilder(command).redirectOutput(io.out()).redirectError(io.err()).start();
            p.getOutputStream().close();
            io.started().accept(p);
            status = p.waitFor();
        } else if (m.record()) {
            Trees.delete(recording(dir, m, i)); // left by an earlier bench into the same --out
            status = recorder.record(recording(dir, m, i), m.order(), w.orderedFields(), command, io);
        } else {
            status = recorder.replay(recording(dir, m.recording(), i), io);
        }
        long wall = System.nanoTime() - start;
        long rss = watch[0] == null ? 0 : watch[0].finish();
        long timed = span[0] == null ? -1 : span[0].finish();
        String sha = sha(out);
        long logBytes = m.record() ? treeSize(recording(dir, m, i)) : 0;
        String failure = watch[0] != null && watch[0].timedOut()
                ? "timed out after " + TimeUnit.NANOSECONDS.toSeconds(timeout) + " s"
                : failure(m, status, sha, err, done);
        if (failure == null && timed < 0) {
            failure = "the workload's timing marks are missing from its stderr";
        }
        if (failure == null) {
            Files.delete(out);
            Files.delete(err);
        }
        return new Run(w.name(), m, i, warmUp, wall, timed, rss, status, sha, logBytes, failure);
    }

    /** Why a run does not match the run it must reproduce, or {@code null}. */
    private static String failure(Mode m, int status, String sha, Path err, Map<Mode, Run> done) throws IOException {
        if (m == Mode.PLAIN) {
            return status == 0 ? null : "the workload failed with exit status " + status + firstLine(err, "");
        }
        Run expected = done.get(m.replay() ? m.recording() : Mode.PLAIN);
        String what = m.replay() ? "the recording" : "the plain run";
        if (m.replay()) {
            String report = DivergenceReport.summary(err);
            if (report != null) {
                return report;
            }
        }
        if (status != expected.status()) {
            return "exit status " + status + ", " + what + " " + expected.status() + firstLine(err, "");
        }
        if (!sha.equals(expected.stdoutSha())) {
            return "stdout differs from " + what;
        }
        return null;
    }

    /** ": LINE" for the first line of the file starting with {@code prefix}, or "". */
    private static String firstLine(Path file, String prefix) throws IOException {
        try (Stream<String> lines = Files.lines(file)) {
            return lines.filter(l -> l.startsWith(prefix) && !l.isBlank()).findFirst().map(l -> ": " + l).orElse("");
        } catch (UncheckedIOException e) {
            return ""; // not text
        }
    }

    private static Path recording(Path dir, Mode record, int i) {
        return dir.resolve(slug(record) + "-" + i + ".rec");
    }

    private static String slug(Mode m) {
        return m.label().toLowerCase(Locale.ROOT).replace(' ', '-');
    }

    private static String sha(Path file) throws Exception {
        MessageDigest md = MessageDigest.getInstance("SHA-256");
        return HexFormat.of().formatHex(md.digest(Files.readAllBytes(file)));
    }

    private static long treeSize(Path dir) throws IOException {
        if (!Files.isDirectory(dir)) {
            return 0;
        }
        try (Stream<Path> s = Files.walk(dir)) {
            return s.filter(Files::isRegularFile).mapToLong(p -> p.toFile().length()).sum();
        }
    }
}
