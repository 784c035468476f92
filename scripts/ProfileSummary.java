import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * Summarizes the profiles {@code scripts/profile-workload} writes: async-profiler's collapsed
 * stacks with thread frames ({@code threads}), {@code plain-R.txt} and {@code record-R.txt} per
 * round R, round 0 being the warm-up, which is left out. Prints, per run on average, each mode's
 * samples (or bytes, for an allocation profile) by kind of thread; in the application's threads
 * outside Reprise's start-up, Reprise's frames by where the program entered them; and the leaf
 * frames that gained most from plain to recorded. Run as {@code java scripts/ProfileSummary.java DIR}.
 */
public final class ProfileSummary {
    private static final String REPRISE = "dev/reprise/";
    private static final String START_UP = "dev/reprise/agent/Agent.premain";
    private static final int TOP = 15;
    /** The JVM's and the JDK's own threads, by the start of their names (the profiler cuts them at 15 characters). */
    private static final List<String> JVM_THREADS = List.of("GC Thread", "G1 ", "VM Thread", "VM Periodic", "Service Thread",
            "Sweeper", "Monitor Deflati", "Reference Handl", "Finalizer", "Signal Dispatch", "Common-Cleaner", "Notification Th",
            "Attach Listener");

    /** One mode's profiles, summed over its runs. */
    private static final class Mode {
        int runs;
        final Map<String, Long> byThreadKind = new HashMap<>();
        final Map<String, Long> repriseEntries = new HashMap<>();
        final Map<String, Long> applicationLeaves = new HashMap<>();
        long startUp;
        long application;
        long applicationInReprise;
        long classLoading;

        double perRun(long total) {
            return runs == 0 ? 0 : (double) total / runs;
        }

        double perRun(Map<String, Long> totals, String key) {
            return perRun(totals.getOrDefault(key, 0L));
        }
    }

    public static void main(String[] args) throws IOException {
        if (args.length != 1) {
            System.err.println("usage: java scripts/ProfileSummary.java DIR");
            System.exit(2);
        }
        Path dir = Path.of(args[0]);
        Mode plain = read(dir, "plain-");
        Mode record = read(dir, "record-");
        if (plain.runs == 0 || record.runs == 0) {
            System.err.println("profile-summary: no plain-R.txt and record-R.txt profiles past round 0 in " + dir);
            System.exit(2);
        }
        System.out.printf("runs: %d plain, %d recorded (round 0, the warm-up, left out); figures are per run%n%n",
                plain.runs, record.runs);
        System.out.printf("%-28s %12s %12s %8s%n", "threads", "plain", "recorded", "ratio");
        for (String k : union(plain.byThreadKind, record.byThreadKind)) {
            row(k, plain.perRun(plain.byThreadKind, k), record.perRun(record.byThreadKind, k));
        }
        row("application, after start-up", plain.perRun(plain.application), record.perRun(record.application));
        row("  of which loading classes", plain.perRun(plain.classLoading), record.perRun(record.classLoading));
        System.out.printf("%nrecorded: start-up (Agent.premain) %.0f; in the application's threads after it, Reprise's frames %.0f (%.1f%%)%n",
                record.perRun(record.startUp), record.perRun(record.applicationInReprise),
                100.0 * record.applicationInReprise / Math.max(1, record.application));
        System.out.println("\nReprise's frames in the application's threads, by caller > entry point (with all they call,"
                + " the operation a hook wraps included: a class load's whole work is under ClassLoadingOps.loadClass):");
        Map<String, Double> entries = new HashMap<>();
        record.repriseEntries.keySet().forEach(k -> entries.put(k, record.perRun(record.repriseEntries, k)));
        top(entries).forEach(e -> System.out.printf("%10.0f  %s%n", e.getValue(), e.getKey()));
        System.out.println("\napplication threads' leaf frames, most gained (recorded - plain):");
        Map<String, Double> gained = new HashMap<>();
        for (String k : union(plain.applicationLeaves, record.applicationLeaves)) {
            gained.put(k, record.perRun(record.applicationLeaves, k) - plain.perRun(plain.applicationLeaves, k));
        }
        top(gained).forEach(e -> System.out.printf("%+10.0f  %s%n", e.getValue(), e.getKey()));
    }

    private static void row(String name, double plain, double record) {
        System.out.printf("%-28s %12.0f %12.0f %8s%n", name, plain, record,
                plain == 0 ? "-" : String.format("%.2fx", record / plain));
    }

    /** The {@value #TOP} largest values, largest first. */
    private static List<Map.Entry<String, Double>> top(Map<String, Double> values) {
        return values.entrySet().stream().sorted(Map.Entry.<String, Double>comparingByValue().reversed()).limit(TOP).toList();
    }

    private static TreeSet<String> union(Map<String, Long> a, Map<String, Long> b) {
        TreeSet<String> keys = new TreeSet<>(a.keySet());
        keys.addAll(b.keySet());
        return keys;
    }

    private static Mode read(Path dir, String prefix) throws IOException {
        Mode mode = new Mode();
        List<Path> files;
        try (Stream<Path> s = Files.list(dir)) {
            files = s.filter(p -> {
                String n = p.getFileName().toString();
                return n.startsWith(prefix) && n.endsWith(".txt") && !n.equals(prefix + "0.txt");
            }).sorted(Comparator.naturalOrder()).toList();
        }
        for (Path f : files) {
            mode.runs++;
            try (Stream<String> lines = Files.lines(f)) {
                lines.forEach(line -> add(mode, line));
            }
        }
        return mode;
    }

    private static void add(Mode mode, String line) {
        int space = line.lastIndexOf(' ');
        if (space < 0) {
            return;
        }
        long n = Long.parseLong(line.substring(space + 1).trim());
        String[] frames = line.substring(0, space).split(";");
        String kind = threadKind(frames[0]);
        mode.byThreadKind.merge(kind, n, Long::sum);
        boolean startUp = false;
        for (String f : frames) {
            if (f.startsWith(START_UP)) {
                startUp = true;
                break;
            }
        }
        if (startUp) {
            mode.startUp += n;
            return;
        }
        if (!kind.equals("application")) {
            return;
        }
        mode.application += n;
        mode.applicationLeaves.merge(frames[frames.length - 1], n, Long::sum);
        for (String f : frames) {
            if (f.endsWith("ClassLoader.loadClass") || f.startsWith("SystemDictionary::resolve")) {
                mode.classLoading += n;
                break;
            }
        }
        for (int i = 1; i < frames.length; i++) {
            if (frames[i].startsWith(REPRISE)) {
                mode.applicationInReprise += n;
                mode.repriseEntries.merge(simple(frames[i - 1]) + " > " + simple(frames[i]), n, Long::sum);
                break;
            }
        }
    }

    /** A frame's class and method without its package. */
    private static String simple(String frame) {
        return frame.substring(frame.lastIndexOf('/') + 1);
    }

    /** The kind of a thread, from its frame {@code [name tid=N]}: the JVM's own, Reprise's, or the application's. */
    private static String threadKind(String threadFrame) {
        String name = threadFrame.replaceFirst("^\\[", "").replaceFirst("\\s*tid=\\d+\\]$", "");
        if (name.startsWith("C1 Compiler") || name.startsWith("C2 Compiler")) {
            return "JIT compilers";
        }
        if (name.isEmpty() || JVM_THREADS.stream().anyMatch(name::startsWith)) {
            return "JVM (GC, VM, service)";
        }
        if (name.startsWith("reprise")) {
            return "Reprise's own threads";
        }
        return "application";
    }
}
