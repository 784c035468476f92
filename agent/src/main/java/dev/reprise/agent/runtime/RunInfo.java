package dev.reprise.agent.runtime;

import java.io.IOException;
import java.util.Map;
import java.util.Properties;

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
    record Ending(boolean exitRan, String writeFailed, boolean recorderGone) {
        /** From what the recording's exit left, null if it left nothing. */
        static Ending of(EndOfRun end) {
            return end == null ? new Ending(false, null, false) : new Ending(end.flushed(), end.writeFailed(), end.recorderGone());
        }

        String describe(int status) {
            if (writeFailed != null) {
                return "was cut where writing the recording failed (" + writeFailed + ")";
            }
            if (recorderGone) {
                return "was ended when reprise record was killed, while threads still ran";
            }
            String signal = status > 128 ? " by signal " + (status - 128) : "";
            if (exitRan) {
                return "was ended" + signal + " while threads still ran";
            }
            return status > 128 ? "was killed by signal " + (status - 128)
                    : "halted with status " + status + " (Runtime.halt, or the JVM crashed) while threads still ran";
        }
    }

    private RunInfo() {
    }

    static void writeJvm(RecordingWriter recording) throws IOException {
        Properties p = new Properties();
        for (String k : new String[] {"java.version", "java.vendor", "java.vm.name", "java.home", "os.name", "os.arch"}) {
            p.setProperty(k, System.getProperty(k, ""));
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

    static void writeEnd(RecordingWriter recording, Map<String, Long> eventsByThread, long[] cutTurns) throws IOException {
        recording.writeEnd(EndOfRun.flushed(eventsByThread, cutTurns, RecorderWatch.fired,
                RaceWatch.on() ? RaceWatch.raced() : null));
    }

    /** The end of a recording whose streams could not all be written: no counts, the failure. */
    static void writeFailedEnd(RecordingWriter recording, IOException failure) throws IOException {
        recording.writeEnd(EndOfRun.writeFailed(String.valueOf(failure.getMessage()), RecorderWatch.fired));
    }
}
