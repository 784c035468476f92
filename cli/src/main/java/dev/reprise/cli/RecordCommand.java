package dev.reprise.cli;

import java.io.IOException;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;

import dev.reprise.cli.recording.Manifest;
import dev.reprise.cli.recording.RecordingDir;
import dev.reprise.cli.recording.RecordingException;
import dev.reprise.core.config.AgentConfig;
import dev.reprise.core.config.Order;
import dev.reprise.core.recording.EndOfRun;
import dev.reprise.core.recording.Recording;
import dev.reprise.core.recording.RecordingWriter;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code reprise record}: runs the program live with the recorder and writes the manifest at its end. */
@Command(name = "record", mixinStandardHelpOptions = true,
        description = {"Run a Java program and record it.",
            "The program's output is shown live; reprise exits with the program's exit status."},
        footer = {"", "Example:  reprise record -o rec -- java -cp app.jar com.example.Main arg1"})
final class RecordCommand implements Callable<Integer> {
    private static final String WENT_ON = "went on unrecorded";

    @Option(names = {"-o", "--output"}, paramLabel = "DIR",
            description = "Recording directory (created, must be empty). Default: reprise-recording-<date>-<time>")
    Path output;

    @Option(names = "--order", paramLabel = "rto|to", defaultValue = "RTO",
            description = "Ordering of synchronization: rto (relaxed total order, default) or to (total order).")
    Order order;

    @Option(names = "--log-relaxed",
            description = {"Write every relaxed synchronization event with its site instead of counting them, so that a"
                + " replay that diverges stops at the first action that differs. Larger recordings, slower recording."})
    boolean logRelaxed;

    @Option(names = "--order-field", paramLabel = "CLASS.FIELD",
            description = {"Order every access to this plain field as a synchronization action, as if it were volatile:"
                + " for a field the program races on, which otherwise may make the replay diverge. CLASS[] orders every"
                + " reference array element the class's code reads or writes. CLASS#hash gives each object of the class"
                + " its identity hash where the program makes it, for objects threads race to hash first. Repeatable."})
    List<String> orderFields = new ArrayList<>();

    @Option(names = "--learn-races", negatable = true,
            description = {"Look for plain fields the program races on even if an earlier recording of it did already (the"
                + " next recordings order those found too), or with --no-learn-races, do not look. By default a"
                + " program's recordings look until one finds nothing new, three at most."})
    Boolean learnRaces;

    @Option(names = "--redact-env", paramLabel = "NAME",
            description = {"Record this environment variable's value as <redacted> if the program reads it (globs such as"
                + " '*_TOKEN' allowed). The program runs with the real value; a replay reads the placeholder. Repeatable."})
    List<String> redactEnv = new ArrayList<>();

    @Parameters(paramLabel = "-- java ...", arity = "1..*",
            description = "The java command, exactly as you would type it: java [JVM options] (-cp CP MAIN | -jar JAR) [ARGS]")
    List<String> command;

    ProgramIo io = ProgramIo.CONSOLE;
    /** {@link #orderFields} in internal form, once checked, and the fields the program's profile learned. */
    private List<String> fields = List.of();

    @Override
    public Integer call() throws Exception {
        JavaCommand java;
        try {
            java = JavaCommand.parse(command);
            fields = OrderFieldOption.parse(orderFields);
            EnvNames.check(redactEnv);
        } catch (IllegalArgumentException e) {
            Main.say(e.getMessage());
            return ExitCodes.USAGE;
        }
        boolean defaulted = output == null;
        Path dir = defaulted
                ? Path.of("reprise-recording-" + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")))
                : output;
        RecordingWriter out;
        try {
            out = RecordingWriter.create(dir);
        } catch (IOException e) {
            Main.say("cannot create the recording directory: " + e.getMessage());
            return ExitCodes.USAGE;
        }
        RecordingDir rec = RecordingDir.recordedInto(dir);
        Path abs = dir.toAbsolutePath();
        Path cache = CacheDir.trusted(System.getenv());
        RaceProfile profile = profile(cache, java);
        // Races are found through the recorded order: RTO's edges, TO's turns.
        boolean watch = learnRaces != null ? learnRaces : profile == null || stillLearning(profile);
        Path runCache = CacheDir.forRun(cache, fields, watch);
        AgentConfig config = AgentConfig.record(abs).order(order).logRelaxed(logRelaxed)
                .classCache(runCache).jdkClassCache(CacheDir.forJdk(cache, fields, watch, runCache))
                .orderedFields(fields).redactedEnv(redactEnv)
                .recorder(ProcessHandle.current().pid()).watchRaces(watch).build();
        List<String> argv = java.withAgent(java.words().get(0), JavaCommand.agentJar(), config.encode(), List.of());
        long start = System.currentTimeMillis();
        // Written first, replaced when the program ends: a recorder killed outright leaves a
        // recording that still replays up to its last complete chunk.
        try {
            out.writeManifest(manifest(rec, out, java, Manifest.UNKNOWN_STATUS, start, 0).toJson());
        } catch (IOException e) {
            Main.say("cannot write " + abs.resolve(Recording.MANIFEST) + ": " + e.getMessage());
            return ExitCodes.USAGE;
        }
        Process p;
        try {
            p = new ProcessBuilder(argv).redirectInput(ProcessBuilder.Redirect.INHERIT)
                    .redirectOutput(io.out()).redirectError(io.err()).start();
        } catch (IOException e) {
            Main.say("cannot run " + java.words().get(0) + ": " + e.getMessage());
            return ExitCodes.USAGE;
        }
        int status;
        String signal;
        try (Interrupts interrupts = Interrupts.forwardTo(p)) {
            io.started().accept(p);
            status = waitQuietly(p);
            signal = interrupts.received(status);
        }
        long duration = System.currentTimeMillis() - start;
        Manifest m = manifest(rec, out, java, status, start, duration);
        try {
            out.writeManifest(m.toJson());
        } catch (IOException e) {
            Main.say("cannot write " + abs.resolve(Recording.MANIFEST) + " (" + e.getMessage() + "): the recording replays"
                    + " up to its last complete chunk; the program exited with status " + status);
            return status;
        }
        if (watch) {
            learned(rec, profile);
        }
        String ending = ending(rec, m, status);
        if (signal != null) {
            String failed = ending != null && ending.startsWith(WENT_ON) ? "; it " + ending : "";
            Main.say("interrupted (" + signal + "): forwarded to the program, which exited with status " + status + failed
                    + "; recording saved in " + dir);
        } else if (ending != null) {
            Main.say("the program " + ending + " (exit status " + status + "); the recording holds what was flushed before");
        }
        if (defaulted && signal == null) {
            Main.say("recording saved in " + dir);
        }
        return status;
    }

    /**
     * The program's race profile, whose fields are added to {@link #fields} (said on stderr), or
     * null without a cache, if its class path cannot be read or if the profile is not the user's alone.
     */
    private RaceProfile profile(Path cache, JavaCommand java) {
        if (cache == null) {
            return null;
        }
        try {
            RaceProfile profile = RaceProfile.of(cache, java, Path.of(""));
            if (!CacheTrust.trusts(cache, profile.file())) {
                return null;
            }
            List<String> learned = new ArrayList<>(profile.fields());
            learned.removeAll(fields);
            if (!learned.isEmpty()) {
                List<String> all = new ArrayList<>(fields);
                all.addAll(learned);
                fields = OrderFieldOption.parse(all.stream().map(OrderFieldOption::display).toList());
                Main.say("ordering the plain fields and array elements earlier recordings of this program raced on: " + OrderFieldOption.displayed(learned)
                        + " (learned in " + profile.file() + ")");
            }
            return profile;
        } catch (IOException | IllegalArgumentException e) {
            Main.say("cannot read this program's race profile: " + e.getMessage());
            return null;
        }
    }

    private static boolean stillLearning(RaceProfile profile) {
        try {
            return profile.stillLearning();
        } catch (IOException e) {
            Main.say("cannot read this program's race profile: " + e.getMessage());
            return false;
        }
    }

    /** After a run that looked for races: keeps the fields found in the profile, and says which, and what follows. */
    private void learned(RecordingDir rec, RaceProfile profile) {
        List<String> found;
        List<String> alongside;
        try {
            found = RacedFields.of(rec);
            alongside = RacedFields.alongside(rec);
        } catch (RecordingException e) {
            return;
        }
        if (found == null) {
            return; // the run did not reach its end
        }
        List<String> toOrder = new ArrayList<>(found);
        toOrder.addAll(alongside);
        try {
            if (profile != null) {
                profile.add(toOrder);
            }
        } catch (IOException e) {
            Main.say("cannot keep the races found in " + profile.file() + ": " + e.getMessage());
            profile = null;
        }
        if (!toOrder.isEmpty()) {
            Main.say((found.isEmpty() ? "the program shares " + OrderFieldOption.displayed(alongside)
                    + " unordered, fields that go along with others ordered already (caches their classes fill when"
                    + " first asked, a shared collection's other fields), which this recording does not order"
                    : "the program raced on plain fields or array elements " + OrderFieldOption.displayed(found)
                    + ", which this recording does not order" + RacedFields.alongsideSaid(alongside)) + ": its"
                    + " replay may diverge. " + (profile != null ? "The next recording of this program orders them"
                    + (stillLearning(profile) ? " and looks for races again" : "") + " (learned in " + profile.file() + ")."
                    : "Record again with " + RacedFields.options(toOrder) + " to order them."));
        }
    }

    /** How a run that did not complete ended, in the words replay uses; null for one that did. */
    private static String ending(RecordingDir rec, Manifest m, int status) throws RecordingException {
        if (m.completed()) {
            return null;
        }
        EndOfRun end = rec.endOfRun();
        if (end != null && !end.flushed()) {
            return WENT_ON + " after writing the recording failed (" + end.writeFailed() + ")";
        }
        if (EndOfRun.bySignal(end, status)) {
            return (end == null ? "was killed by signal " : "was ended by signal ") + (status - 128);
        }
        return "halted before its exit completed";
    }

    private Manifest manifest(RecordingDir rec, RecordingWriter out, JavaCommand java, int status, long start, long duration)
            throws IOException, RecordingException {
        EndOfRun end = rec.endOfRun();
        Map<String, String> jvm = rec.jvmProperties();
        // The agent's counts when it flushed every stream; else what the streams hold (a killed
        // program, a failed write); none yet in the provisional manifest.
        Map<String, Long> threads = new TreeMap<>();
        if (end != null && end.flushed() && status != Manifest.UNKNOWN_STATUS) {
            threads.putAll(end.threads());
        } else if (status != Manifest.UNKNOWN_STATUS) {
            threads.putAll(RecordingDir.scannedCounts(rec));
        }
        boolean completed = EndOfRun.completed(end, status);
        return new Manifest(Manifest.FORMAT, Main.VERSION, jvm, java.words(), Path.of("").toAbsolutePath().toString(),
                order.name().toLowerCase(Locale.ROOT), status, completed, start, duration, threads,
                fields.isEmpty() ? null : fields, out.sideFileChecksums());
    }

    private static int waitQuietly(Process p) {
        while (true) {
            try {
                return p.waitFor();
            } catch (InterruptedException e) {
                // keep waiting: the manifest needs the exit status
            }
        }
    }
}
