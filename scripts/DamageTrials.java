import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Damages copies of a recording at random and replays each, counting the outcomes: what a user
 * who edits, truncates or loses part of a recording meets. Each trial copies the recording, then
 * truncates a file, flips one bit of it, deletes it, or edits a field of the manifest (with and
 * without sealing it again), and runs {@code reprise replay} on the copy with a time limit.
 *
 * <p>Outcomes: {@code refused} (status 4 with a {@code reprise:} message), {@code identical} (the
 * recorded status and stdout), {@code diverged} (status 3, stdout a prefix of the recorded one),
 * and the harmful ones, which should never occur: {@code hang}, {@code trace} (a Java stack trace
 * on stderr), {@code wrong} (any other status, or output the recording did not print).
 *
 * <p>Run as {@code java scripts/DamageTrials.java REPRISE RECORDING RECORDED_STDOUT N [SEED]}.
 */
public final class DamageTrials {
    private static final long LIMIT_SECONDS = 120;

    public static void main(String[] args) throws Exception {
        if (args.length < 4) {
            System.err.println("usage: java scripts/DamageTrials.java REPRISE RECORDING RECORDED_STDOUT N [SEED]");
            System.exit(2);
        }
        String reprise = args[0];
        Path recording = Path.of(args[1]);
        byte[] recordedOut = Files.readAllBytes(Path.of(args[2]));
        int n = Integer.parseInt(args[3]);
        Random random = new Random(args.length > 4 ? Long.parseLong(args[4]) : 1);
        int recordedStatus = run(List.of(reprise, "inspect", "--json", recording.toString())).json("exitStatus");
        Map<String, Integer> counts = new TreeMap<>();
        Map<String, List<String>> examples = new TreeMap<>();
        Path scratch = Files.createTempDirectory("damage-trials");
        for (int i = 0; i < n; i++) {
            Path copy = scratch.resolve("t" + i);
            copyTree(recording, copy);
            String damage = damage(copy, random);
            Result r = run(List.of(reprise, "replay", copy.toString()));
            String outcome = classify(r, recordedStatus, recordedOut);
            counts.merge(outcome, 1, Integer::sum);
            examples.computeIfAbsent(outcome + " " + damage.split(" ")[0], k -> new ArrayList<>()).add(damage);
            System.out.println(i + "\t" + outcome + "\t" + damage + "\t" + firstLine(r.err));
            deleteTree(copy);
        }
        System.out.println("\noutcomes of " + n + " damaged copies: " + counts);
        examples.forEach((k, v) -> System.out.println("  " + k + ": " + v.size()));
    }

    /** Applies one random damage to the recording at {@code dir}; says which. */
    private static String damage(Path dir, Random random) throws IOException {
        List<Path> files;
        try (Stream<Path> s = Files.walk(dir)) {
            files = s.filter(Files::isRegularFile).sorted().toList();
        }
        Path f = files.get(random.nextInt(files.size()));
        String name = dir.relativize(f).toString();
        byte[] b = Files.readAllBytes(f);
        switch (random.nextInt(5)) {
            case 0 -> {
                int at = b.length == 0 ? 0 : random.nextInt(b.length);
                Files.write(f, java.util.Arrays.copyOf(b, at));
                return "truncate " + name + " at " + at + " of " + b.length;
            }
            case 1, 2 -> {
                if (b.length == 0) {
                    Files.delete(f);
                    return "delete " + name;
                }
                int at = random.nextInt(b.length);
                int bit = random.nextInt(8);
                b[at] ^= (byte) (1 << bit);
                Files.write(f, b);
                return "flip " + name + " byte " + at + " bit " + bit;
            }
            case 3 -> {
                Files.delete(f);
                return "delete " + name;
            }
            default -> {
                return editManifest(dir, random);
            }
        }
    }

    /** Changes one number or word of the manifest, and half the time seals it again as a careful forger would. */
    private static String editManifest(Path dir, Random random) throws IOException {
        Path m = dir.resolve("manifest.json");
        String text = Files.readString(m, StandardCharsets.UTF_8);
        String[] edits = {"\"exitStatus\": ", "\"completed\": ", "\"order\": \"", "\"cwd\": \"", "\"format\": ",
            "\"1\": ", "\"durationMillis\": "};
        String key = edits[random.nextInt(edits.length)];
        int at = text.indexOf(key);
        if (at < 0) {
            return "edit manifest (no " + key.trim() + ")";
        }
        int start = at + key.length();
        String[] values = {"7", "-1", "true", "false", "null", "\"x\"", "92233720368547758070", "1.5", "to", "rto", "/nowhere"};
        String value = values[random.nextInt(values.length)];
        int end = start;
        while (end < text.length() && ",\n}\"".indexOf(text.charAt(end)) < 0) {
            end++;
        }
        String edited = text.substring(0, start) + value + text.substring(end);
        Files.writeString(m, edited, StandardCharsets.UTF_8);
        boolean reseal = random.nextBoolean();
        if (reseal && Files.exists(dir.resolve("manifest.sha256"))) {
            Files.writeString(dir.resolve("manifest.sha256"), sha256(edited.getBytes(StandardCharsets.UTF_8))
                    + "  manifest.json\n", StandardCharsets.UTF_8);
        }
        return "edit manifest " + key.replaceAll("[\": ]", "") + "=" + value + (reseal ? " resealed" : "");
    }

    private static String classify(Result r, int recordedStatus, byte[] recordedOut) {
        if (r.timedOut) {
            return "hang";
        }
        String err = new String(r.err, StandardCharsets.UTF_8);
        if (err.contains("Exception in thread") || err.matches("(?s).*\\n\\s+at [\\w.$]+\\(.*")
                && !err.contains("Java stack:")) {
            return "trace";
        }
        boolean prefix = r.out.length <= recordedOut.length
                && java.util.Arrays.equals(r.out, 0, r.out.length, recordedOut, 0, r.out.length);
        if (r.status == 4 && err.startsWith("reprise: ") && r.out.length == 0) {
            return "refused";
        }
        if (r.status == recordedStatus && java.util.Arrays.equals(r.out, recordedOut)) {
            return "identical";
        }
        if (r.status == 3 && prefix && err.contains("reprise: ")) {
            return "diverged";
        }
        return "wrong";
    }

    private record Result(int status, byte[] out, byte[] err, boolean timedOut) {
        int json(String key) {
            String s = new String(out, StandardCharsets.UTF_8);
            int at = s.indexOf("\"" + key + "\"");
            String rest = s.substring(s.indexOf(':', at) + 1).trim();
            return Integer.parseInt(rest.split("[,\\s}]")[0]);
        }
    }

    private static Result run(List<String> cmd) throws IOException, InterruptedException {
        Path out = Files.createTempFile("trial", ".out");
        Path err = Files.createTempFile("trial", ".err");
        Process p = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        boolean done = p.waitFor(LIMIT_SECONDS, TimeUnit.SECONDS);
        if (!done) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly().waitFor();
        }
        Result r = new Result(done ? p.exitValue() : -1, Files.readAllBytes(out), Files.readAllBytes(err), !done);
        Files.delete(out);
        Files.delete(err);
        return r;
    }

    private static String firstLine(byte[] err) {
        String s = new String(err, StandardCharsets.UTF_8).strip();
        int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl);
    }

    private static String sha256(byte[] bytes) {
        try {
            return java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void copyTree(Path from, Path to) throws IOException {
        try (Stream<Path> s = Files.walk(from)) {
            for (Path p : s.toList()) {
                Path target = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(p, target);
                }
            }
        }
    }

    private static void deleteTree(Path dir) throws IOException {
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
