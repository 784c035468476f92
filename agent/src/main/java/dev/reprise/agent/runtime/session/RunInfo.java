package dev.reprise.agent.runtime.session;

import java.io.IOException;
import java.util.Map;
import java.util.Properties;

import dev.reprise.agent.runtime.events.Op;
import dev.reprise.agent.runtime.ordering.RaceWatch;
import dev.reprise.core.config.Encodings;
import dev.reprise.core.recording.EndOfRun;
import dev.reprise.core.recording.RecordingWriter;

/**
 * What the recording agent leaves beside its streams for {@code reprise} (through the recording's
 * {@link RecordingWriter}, which names the files): the JVM that ran, the operation names by id, and
 * at exit how the run ended ({@link EndOfRun}); and, replaying, how a recorded run that did not
 * complete ended, as the replay tells it.
 */
public final class RunInfo {
    /**
     * How a recorded run that did not complete ended, as replay tells it: whether the JVM went
     * through its exit (a signal, or the recorder's end: an {@link EndOfRun} written), and why the
     * streams were cut.
     */
    record Ending(boolean exitRan, String writeFailed, boolean recorderGone, boolean bySignal) {
        /** From what the recording's exit left, null if it left nothing, and the recorded status. */
        static Ending of(EndOfRun end, int status) {
            boolean bySignal = EndOfRun.bySignal(end, status);
            return end == null ? new Ending(false, null, false, bySignal)
                    : new Ending(end.flushed(), end.writeFailed(), end.recorderGone(), bySignal);
        }

        String describe(int status) {
            if (writeFailed != null) {
                return "was cut where writing the recording failed (" + writeFailed + ")";
            }
            if (recorderGone) {
                return "was ended when reprise record was killed, while threads still ran";
            }
            String signal = bySignal ? " by signal " + (status - 128) : "";
            if (exitRan) {
                return "was ended" + signal + " while threads still ran";
            }
            return bySignal ? "was killed by signal " + (status - 128)
                    : "halted with status " + status + " (Runtime.halt, or the JVM crashed) while threads still ran";
        }
    }

    /**
     * The status the program passed to {@code Runtime.exit}, once it made that call: tells its
     * exit from a signal's when the status is 128 or more. Set on the exiting thread before the
     * exit's hooks, read by the hook that writes the end of the recording. Of two threads calling
     * exit at once, the JVM takes one status and the other thread blocks; this may keep the other.
     */
    private static volatile Integer exitCalled;

    private RunInfo() {
    }

    /** The program called {@code Runtime.exit(status)}; only the first call can take effect. */
    public static void exitCalled(int status) {
        if (exitCalled == null) {
            exitCalled = status;
        }
    }

    static void writeJvm(RecordingWriter recording) throws IOException {
        Properties p = new Properties();
        for (String k : new String[] {"java.version", "java.vendor", "java.vm.name", "java.home", "os.name", "os.arch"}) {
            p.setProperty(k, System.getProperty(k, ""));
        }
        for (String k : Encodings.KEYS) {
            String v = System.getProperty(k);
            if (v != null) {
                p.setProperty(k, v);
            }
        }
        recording.writeJvm(p);
    }

    static void writeOps(RecordingWriter recording) throws IOException {
        Properties p = new Properties();
        for (Map.Entry<Integer, String> e : Op.names().entrySet()) {
            p.setProperty(Integer.toString(e.getKey()), e.getValue());
        }
        recording.writeOps(p);
    }

    static void writeEnd(RecordingWriter recording, Map<String, Long> eventsByThread, long[] cutTurns,
                         Map<String, Long> relaxedTails) throws IOException {
        recording.writeEnd(EndOfRun.flushed(eventsByThread, cutTurns, RecorderWatch.fired,
                RaceWatch.on() ? RaceWatch.raced() : null, RaceWatch.on() ? RaceWatch.alongside() : null, exitCalled, relaxedTails, PolledReferences.all()));
    }

    /** The end of a recording whose streams could not all be written: no counts, the failure. */
    static void writeFailedEnd(RecordingWriter recording, IOException failure) throws IOException {
        recording.writeEnd(EndOfRun.writeFailed(String.valueOf(failure.getMessage()), RecorderWatch.fired, exitCalled));
    }
}
