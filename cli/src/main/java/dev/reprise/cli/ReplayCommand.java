package dev.reprise.cli;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

import dev.reprise.cli.debug.DebugProxy;
import dev.reprise.cli.debug.StopAt;
import dev.reprise.cli.recording.CheckedRecording;
import dev.reprise.cli.recording.Manifest;
import dev.reprise.cli.recording.RecordingException;
import dev.reprise.cli.recording.StreamScan;
import dev.reprise.core.config.AgentConfig;
import dev.reprise.core.config.Encodings;
import dev.reprise.core.config.Order;
import dev.reprise.core.recording.Recording;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code reprise replay}: runs the recorded program again under the replayer. Reads come from the
 * recording, writes are checked and dropped (stdout and stderr are reproduced), and any departure
 * from the recording stops the replay with exit status 3.
 */
@Command(name = "replay", mixinStandardHelpOptions = true,
        description = {"Replay a recording: same output and exit status, without the program's files or environment.",
            "Exits with the recorded status, 3 if the replay diverged, 4 if the recording is unreadable."})
final class ReplayCommand implements Callable<Integer> {
    @Parameters(paramLabel = "DIR", description = "The recording directory.")
    Path dir;

    @Option(names = "--chaos", paramLabel = "SEED",
            description = "Inject random delays and yields at replayed events, seeded by SEED.")
    Long chaos;

    @Option(names = "--debug", paramLabel = "PORT", arity = "0..1", fallbackValue = "5005",
            description = "Start the replay suspended, for a JDWP debugger on PORT (default 5005) of this machine.")
    Integer debugPort;

    @Option(names = "--stop-at", paramLabel = "WHERE",
            description = {"With --debug (implied): let the debugger in only once the replay reaches WHERE:",
                "THREAD:EVENT (before that event, numbered as 'reprise inspect --events' and divergence reports do),",
                "'exit' (after the program's last event) or 'exception' (an exception nothing catches is thrown)."})
    String stopAt;

    private static final int DEFAULT_DEBUG_PORT = 5005;

    ProgramIo io = ProgramIo.CONSOLE;

    @Override
    public Integer call() throws Exception {
        if (chaos != null && chaos < 0) {
            Main.say("--chaos wants a seed from 0 to " + Long.MAX_VALUE + ", not " + chaos);
            return ExitCodes.USAGE;
        }
        Manifest m;
        CheckedRecording checked;
        try {
            checked = CheckedRecording.open(dir);
            m = checked.manifest();
        } catch (RecordingException e) {
            Main.say(e.getMessage());
            return ExitCodes.CORRUPT;
        }
        JavaCommand java;
        try {
            java = JavaCommand.parse(m.command());
            RecordedOptions.check(java.jvmOptions());
        } catch (IllegalArgumentException e) {
            Main.say(dir.resolve(Recording.MANIFEST) + ": recorded command unusable: " + e.getMessage());
            return ExitCodes.CORRUPT;
        }
        ProgramClasses classes = ProgramClasses.of(java, m.cwd());
        if (ProgramClasses.packed(dir)) {
            try {
                java = JavaCommand.parse(classes.packedWords(dir));
            } catch (IOException e) {
                Main.say("cannot read the classes packed in " + dir + ": " + e.getMessage());
                return ExitCodes.CORRUPT;
            }
        } else if (!classes.missing().isEmpty()) {
            Main.say("cannot replay " + dir + ": the program's classes are not here: " + String.join(", ", classes.missing())
                    + " (class path of the recorded command, in " + m.cwd() + "). A replay runs the program's code again;"
                    + " on the machine that recorded it, run: reprise pack " + dir);
            return ExitCodes.USAGE;
        }
        LocalJdk jdk;
        try {
            jdk = LocalJdk.find(System.getenv());
        } catch (IllegalArgumentException e) {
            Main.say(e.getMessage());
            return ExitCodes.USAGE;
        }
        String mismatch = jdk.mismatch(m.jvm());
        if (mismatch != null) {
            LocalJdk installed = LocalJdk.installed(m.jvm(), System.getenv());
            if (installed == null) {
                Main.say("cannot replay " + dir + ": " + mismatch + ", and no JDK of the recorded version is installed in "
                        + LocalJdk.searched(System.getenv()) + ": set JAVA_HOME to one");
                return ExitCodes.USAGE;
            }
            Main.say("replaying with " + installed.java() + ", " + installed.describe() + " as recorded (" + jdk.java()
                    + " is " + jdk.describe() + ")");
            jdk = installed;
        }
        String diagnostics = JvmDiagnostics.replayNote(java.jvmOptions());
        if (diagnostics != null) {
            Main.say(diagnostics);
        }
        java = java.withJvmOptions(ReplayStack.enlarged(JvmDiagnostics.forReplay(java.jvmOptions())));
        StopAt stop = null;
        if (stopAt != null) {
            try {
                stop = StopAt.parse(stopAt, checked.streams());
            } catch (IllegalArgumentException e) {
                Main.say(e.getMessage());
                return ExitCodes.USAGE;
            }
            if (debugPort == null) {
                debugPort = DEFAULT_DEBUG_PORT;
            }
        }
        Path cache = CacheDir.trusted(System.getenv());
        Path runCache = CacheDir.forRun(cache, m.fieldsOrdered(), false);
        AgentConfig.Builder config = AgentConfig.replay(dir.toAbsolutePath(), m.exitStatus())
                .order("to".equals(m.order()) ? Order.TO : Order.RTO).chaos(chaos).classCache(runCache)
                .jdkClassCache(CacheDir.forJdk(cache, m.fieldsOrdered(), false, runCache)).orderedFields(m.fieldsOrdered());
        ReplayLaunch launch = new ReplayLaunch(java, jdk, m.cwd(), Encodings.replayOptions(m.jvm()), config, io,
                debugPort != null);
        DebugProxy proxy = null;
        if (debugPort != null) {
            List<StreamScan> streams = checked.streams();
            try {
                proxy = DebugProxy.open(debugPort, stop, launch::say, launch::start, spec -> StopAt.parse(spec, streams));
            } catch (IOException e) {
                Main.say("cannot open the debugger port " + debugPort + ": " + e.getMessage());
                return ExitCodes.USAGE;
            }
        }
        Process p;
        try {
            p = launch.start(stop, proxy == null ? null : proxy.jdwpOption());
        } catch (IOException e) {
            Main.say("cannot run " + launch.executable() + ": " + e.getMessage());
            if (proxy != null) {
                proxy.close();
            }
            return ExitCodes.USAGE;
        }
        int status;
        if (proxy != null) {
            DebugProxy session = proxy;
            Thread t = new Thread(() -> session.serve(p), "reprise-debug");
            t.setDaemon(true);
            t.start();
            Process last = proxy.awaitLast(p);
            status = last.exitValue();
            launch.drained(last);
            proxy.close();
        } else {
            status = p.waitFor();
        }
        if (status != m.exitStatus()) {
            if (status == ExitCodes.CORRUPT) {
                return status; // the replayer has reported why
            }
            if (status != ExitCodes.DIVERGED) {
                Main.say("replay diverged: the program exited with status " + status + ", the recording with "
                        + m.exitStatus());
            }
            String advice = RacedFields.divergedAdvice(checked.dir(), m);
            if (advice != null) {
                Main.say(advice);
            }
            return ExitCodes.DIVERGED;
        }
        return status;
    }
}
