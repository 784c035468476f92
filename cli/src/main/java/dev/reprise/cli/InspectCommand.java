package dev.reprise.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.stream.Stream;

import com.google.gson.GsonBuilder;

import dev.reprise.cli.recording.CheckedRecording;
import dev.reprise.cli.recording.Manifest;
import dev.reprise.cli.recording.RecordingDir;
import dev.reprise.cli.recording.RecordingException;
import dev.reprise.cli.recording.StreamScan;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code reprise inspect}: what a recording holds, read and verified as replay verifies it (exit 4 if damaged). */
@Command(name = "inspect", mixinStandardHelpOptions = true,
        description = "Summarize a recording: command, threads, events by kind, sizes, whether the run completed.")
final class InspectCommand implements Callable<Integer> {
    @Parameters(paramLabel = "DIR", description = "The recording directory.")
    Path dir;

    @Option(names = "--json", description = "Print the summary as JSON, for scripts.")
    boolean json;

    @Option(names = "--events", paramLabel = "THREAD",
            description = "List the events of one thread (by path, e.g. 1 or 1.2): number, operation, call site id, digest, size.")
    String eventsOf;

    /** The summary; its field names are the JSON keys. */
    record Summary(String recording, List<String> command, String cwd, String java, int exitStatus, boolean completed,
                   long durationMillis, String order, long events, long totalBytes, long rawBytes,
                   List<ThreadSummary> threads, Map<String, Long> eventsByKind, long relaxedInRuns) {
    }

    record ThreadSummary(String path, long events, long bytes, long rawBytes, boolean tornTail) {
    }

    @Override
    public Integer call() throws Exception {
        Summary s;
        try {
            if (eventsOf != null) {
                return listEvents(CheckedRecording.open(dir).dir());
            }
            s = summarize(CheckedRecording.openReadingEvents(dir));
        } catch (RecordingException e) {
            Main.say(e.getMessage());
            return ExitCodes.CORRUPT;
        }
        if (json) {
            System.out.println(new GsonBuilder().setPrettyPrinting().disableHtmlEscaping().create().toJson(s));
        } else {
            print(s);
        }
        return 0;
    }

    private int listEvents(RecordingDir rec) throws RecordingException {
        Properties ops = rec.ops();
        Path stream = rec.streamFile(eventsOf);
        if (!Files.exists(stream)) {
            Main.say("no thread " + eventsOf + " in " + rec.path());
            return ExitCodes.USAGE;
        }
        StreamScan.forEach(stream, (n, h) -> {
            String name = ops == null ? null : ops.getProperty(Integer.toString(h.op()));
            System.out.printf("%8d  %-28s site %-6d digest %08x  %d bytes%s%n", n, name != null ? name : "op#" + h.op(),
                    h.site(), h.digest(), h.length(), h.threw() ? "  threw" : "");
        });
        return 0;
    }

    private Summary summarize(CheckedRecording checked) throws Exception {
        RecordingDir rec = checked.dir();
        Manifest m = checked.manifest();
        Properties ops = rec.ops();
        List<ThreadSummary> threads = new ArrayList<>();
        Map<String, Long> byKind = new TreeMap<>();
        long events = 0;
        long raw = 0;
        long relaxedInRuns = 0;
        for (StreamScan scan : checked.streams()) {
            relaxedInRuns += scan.relaxedInRuns();
            threads.add(new ThreadSummary(scan.thread(), scan.events(), scan.fileBytes(), scan.rawBytes(), scan.tornAt() >= 0));
            events += scan.events();
            raw += scan.rawBytes();
            for (Map.Entry<Integer, Long> e : scan.byOp().entrySet()) {
                String name = ops == null ? null : ops.getProperty(Integer.toString(e.getKey()));
                byKind.merge(name != null ? name : "op#" + e.getKey(), e.getValue(), Long::sum);
            }
        }
        long total;
        try (Stream<Path> files = Files.walk(rec.path())) {
            total = files.filter(Files::isRegularFile).mapToLong(p -> p.toFile().length()).sum();
        }
        String java = m.jvm() == null ? "?" : m.jvm().getOrDefault("java.version", "?") + " (" + m.jvm().getOrDefault("java.vendor", "?") + ")";
        return new Summary(rec.path().toString(), m.command(), m.cwd(), java, m.exitStatus(), m.completed(),
                m.durationMillis(), m.order(), events, total, raw, threads, new LinkedHashMap<>(byKind), relaxedInRuns);
    }

    private static void print(Summary s) {
        System.out.println("recording  " + s.recording());
        System.out.println("command    " + String.join(" ", s.command()));
        System.out.println("directory  " + s.cwd());
        System.out.println("java       " + s.java());
        System.out.println("exit       " + s.exitStatus() + (s.completed() ? "  (run completed)" : "  (run did NOT complete: replay stops where the recording ends)"));
        System.out.println("duration   " + s.durationMillis() + " ms");
        System.out.println("order      " + s.order());
        System.out.printf("size       %d bytes on disk, %d bytes of events uncompressed%n", s.totalBytes(), s.rawBytes());
        System.out.println("events     " + s.events());
        System.out.println();
        System.out.printf("%-16s %10s %12s %12s%n", "thread", "events", "bytes", "raw bytes");
        for (ThreadSummary t : s.threads()) {
            System.out.printf("%-16s %10d %12d %12d%s%n", t.path(), t.events(), t.bytes(), t.rawBytes(),
                    t.tornTail() ? "  (last chunk torn)" : "");
        }
        System.out.println();
        System.out.printf("%-28s %10s%n", "events by kind", "count");
        for (Map.Entry<String, Long> e : s.eventsByKind().entrySet()) {
            System.out.printf("%-28s %10d%n", e.getKey(), e.getValue());
        }
        if (s.relaxedInRuns() > 0) {
            System.out.println();
            System.out.printf("events counted, not written (%s): %d%n", StreamScan.RELAXED_RUN, s.relaxedInRuns());
            System.out.println("(relaxed synchronization events, and reference reads that found their referent)");
        }
    }
}
