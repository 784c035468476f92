package dev.reprise.cli.conformance;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import dev.reprise.cli.RaceProfile;
import dev.reprise.cli.bench.DivergenceReport;
import dev.reprise.cli.bench.Trees;
import dev.reprise.core.config.Order;
import dev.reprise.core.recording.Recording;

/**
 * Records a program once, in a fresh working directory holding copies of its inputs, then removes
 * that directory and replays the recording several times with {@code --chaos}, each from an empty
 * directory, comparing stdout, stderr and exit status byte for byte with the recording's. A replay
 * must also leave its directory empty: it never writes. An RTO recording that learned races it
 * does not order is made again, as its advice says, until one finds none new. Runs the {@code reprise} command as a user
 * does, in a child JVM, so that each run has its own working directory. A run past its deadline is
 * killed, and reported stuck. A failing trial keeps its files for a post-mortem.
 */
final class Trial {
    private final List<String> reprise;
    private final long recordTimeoutNanos;
    private final int replays;

    /** {@code reprise}: the command that starts the CLI, up to its subcommand. */
    Trial(List<String> reprise, long recordTimeoutNanos, int replays) {
        this.reprise = reprise;
        this.recordTimeoutNanos = recordTimeoutNanos;
        this.replays = replays;
    }

    /** Runs the program plain in a fresh copy of its inputs; its status tells whether recording changed it. */
    Launch plain(List<String> command, Jdk jdk, Program program, Path suite, Path dir) throws IOException, InterruptedException {
        Trees.delete(dir);
        Path cwd = Files.createDirectories(dir.resolve("cwd"));
        program.copyInputs(suite, cwd);
        Launch l = Launch.run(command, jdk, cwd, dir.resolve("plain.out"), dir.resolve("plain.err"), recordTimeoutNanos);
        Trees.delete(dir);
        return l;
    }

    Outcome run(List<String> command, Jdk jdk, Program program, Path suite, Order order, Launch plain, Path dir)
            throws IOException, InterruptedException {
        Trees.delete(dir);
        Path cwd = Files.createDirectories(dir.resolve("cwd"));
        program.copyInputs(suite, cwd);
        Path rec = dir.resolve("recording");
        List<String> record = new ArrayList<>(reprise);
        record.addAll(List.of("record", "--order", order.name().toLowerCase(Locale.ROOT), "-o", rec.toString(), "--"));
        record.addAll(command);
        Path out = dir.resolve("record.out");
        Path err = dir.resolve("record.err");
        Launch r = Launch.run(record, jdk, cwd, out, err, recordTimeoutNanos);
        String failure = recordingFailure(r, plain, rec, out, err);
        // A recording that learned races it does not order says its replay may diverge: record
        // again, as its advice says, from fresh inputs; that one orders them, and may learn more
        // while the program still learns. The one after the last learning one learns nothing.
        for (int made = 1; failure == null && RaceProfile.foundUnordered(rec) && made <= RaceProfile.LEARNING_RECORDINGS; made++) {
            Trees.delete(cwd);
            Trees.delete(rec);
            Files.createDirectories(cwd);
            program.copyInputs(suite, cwd);
            r = Launch.run(record, jdk, cwd, out, err, recordTimeoutNanos);
            failure = recordingFailure(r, plain, rec, out, err);
        }
        if (failure == null) {
            Trees.delete(cwd); // the replays must not need the inputs, nor find what the recorded run wrote
            long replayTimeout = Math.min(Math.max(TimeUnit.SECONDS.toNanos(60), 5 * r.nanos()), recordTimeoutNanos);
            for (int i = 1; i <= replays && failure == null; i++) {
                failure = replay(rec, jdk, i, r.status(), out, err, dir, replayTimeout);
            }
        }
        if (failure == null) {
            Trees.delete(dir);
        }
        return new Outcome(order, failure);
    }

    private static String recordingFailure(Launch r, Launch plain, Path rec, Path out, Path err) throws IOException {
        if (r.timedOut()) {
            return "recording stuck: no end after " + TimeUnit.NANOSECONDS.toSeconds(r.nanos()) + " s";
        }
        String said = firstLine(err, "reprise: ");
        if (!Files.isRegularFile(rec.resolve(Recording.MANIFEST))) {
            return "recording failed (status " + r.status() + ")" + (said.isEmpty() ? "" : ": " + said);
        }
        String crash = lineAfter(out, "# Problematic frame:");
        if (crash != null) {
            return "recording failed: the JVM crashed (exit status " + r.status() + ") in " + crash.substring(1).strip();
        }
        if (!plain.timedOut() && r.status() != plain.status()) {
            String first = firstLine(err, "");
            return "recording failed: exit status " + r.status() + ", plain run " + plain.status()
                    + (first.isEmpty() ? "" : ": " + first);
        }
        return null;
    }

    /** Why replay {@code i} does not reproduce the recording, or {@code null}. */
    private String replay(Path rec, Jdk jdk, int i, int recorded, Path recOut, Path recErr, Path dir, long timeoutNanos)
            throws IOException, InterruptedException {
        long seed = i;
        Path cwd = Files.createDirectories(dir.resolve("replay-" + i));
        Path out = dir.resolve("replay-" + i + ".out");
        Path err = dir.resolve("replay-" + i + ".err");
        List<String> replay = new ArrayList<>(reprise);
        replay.addAll(List.of("replay", rec.toString(), "--chaos", Long.toString(seed)));
        Launch l = Launch.run(replay, jdk, cwd, out, err, timeoutNanos);
        String which = "replay " + i + " (--chaos " + seed + "): ";
        if (l.timedOut()) {
            return which + "stuck: no end after " + TimeUnit.NANOSECONDS.toSeconds(timeoutNanos) + " s";
        }
        String report = DivergenceReport.summary(err);
        if (report != null) {
            return which + report;
        }
        if (l.status() != recorded) {
            String said = firstLine(err, "reprise: ");
            return which + "exit status " + l.status() + ", recorded " + recorded + (said.isEmpty() ? "" : ": " + said);
        }
        String diff = firstDifference(recOut, out);
        if (diff != null) {
            return which + "stdout differs from the recording at " + diff;
        }
        diff = firstDifference(programLines(recErr), programLines(err));
        if (diff != null) {
            return which + "stderr differs from the recording at " + diff;
        }
        try (Stream<Path> left = Files.list(cwd)) {
            List<String> names = left.map(p -> p.getFileName().toString()).sorted().toList();
            if (!names.isEmpty()) {
                return which + "wrote into its working directory: " + String.join(", ", names);
            }
        }
        return null;
    }

    /** "line N" of the first line where the files differ, or {@code null} if they are the same bytes. */
    private static String firstDifference(Path expected, Path actual) throws IOException {
        return firstDifference(Files.readAllBytes(expected), Files.readAllBytes(actual));
    }

    private static String firstDifference(byte[] a, byte[] b) {
        int at = Arrays.mismatch(a, b);
        if (at < 0) {
            return null;
        }
        int line = 1;
        for (int k = 0; k < at; k++) {
            if (a[k] == '\n') {
                line++;
            }
        }
        return "line " + line;
    }

    /**
     * The file without Reprise's own lines: {@code record} says on the stream it shares with the
     * program what it did (the fields it orders, the races it found), which no replay repeats.
     */
    static byte[] programLines(Path file) throws IOException {
        java.io.ByteArrayOutputStream kept = new java.io.ByteArrayOutputStream();
        byte[] all = Files.readAllBytes(file);
        for (int start = 0; start < all.length;) {
            int end = start;
            while (end < all.length && all[end] != '\n') {
                end++;
            }
            end = Math.min(end + 1, all.length);
            if (!startsWith(all, start, "reprise: ")) {
                kept.write(all, start, end - start);
            }
            start = end;
        }
        return kept.toByteArray();
    }

    private static boolean startsWith(byte[] bytes, int at, String prefix) {
        if (at + prefix.length() > bytes.length) {
            return false;
        }
        for (int i = 0; i < prefix.length(); i++) {
            if (bytes[at + i] != prefix.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    /** The line after the first one equal to {@code marker}, as HotSpot's crash report names the crashing frame; or {@code null}. */
    private static String lineAfter(Path file, String marker) throws IOException {
        String[] lines = new String(Files.readAllBytes(file), java.nio.charset.StandardCharsets.ISO_8859_1).split("\n");
        for (int i = 0; i + 1 < lines.length; i++) {
            if (lines[i].equals(marker)) {
                return lines[i + 1];
            }
        }
        return null;
    }

    /** The first line of the file starting with {@code prefix} (blank lines skipped), or "". */
    private static String firstLine(Path file, String prefix) throws IOException {
        for (String l : new String(Files.readAllBytes(file), java.nio.charset.StandardCharsets.UTF_8).split("\n")) {
            if (l.startsWith(prefix) && !l.isBlank()) {
                return l.strip();
            }
        }
        return "";
    }
}
