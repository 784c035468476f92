package dev.reprise.agent.runtime;

import java.util.List;

/**
 * Replay of a recording that did not complete (the JVM killed, halted or ended by a signal while
 * threads still ran, or the recording cut where writing it failed): every thread replays as far
 * as its stream goes and waits there, since the others may still have events. A watch thread,
 * started when the first thread reaches its end, ends the replay once no thread can go further:
 * no recorded thread runnable (the waiting ones park, or block on a monitor a waiting one holds)
 * and no event replayed for {@value #QUIET_CHECKS} checks {@value #CHECK_MILLIS} ms apart. It
 * then says where the recording ends and exits with the recorded status: through
 * {@link System#exit} if the recorded run went through its exit (a signal: the program's shutdown
 * hooks ran and are recorded, and so replay), else by a halt, as the recorded run ended.
 */
final class RecordingEnd extends Thread {
    private static final long CHECK_MILLIS = 100;
    private static final int QUIET_CHECKS = 3;
    /** How many threads a message names, with the events each replayed. */
    private static final int NAMED = 6;
    private static boolean started;

    private final Session session;
    private final RunInfo.Ending ending;
    private final int status;

    private RecordingEnd(Session session, RunInfo.Ending ending, int status) {
        super("reprise-recording-end");
        this.session = session;
        this.ending = ending;
        this.status = status;
        setDaemon(true);
    }

    /** {@code ctx} replayed its whole stream; starts the watch once. The caller then waits for the end. */
    static synchronized void reached(Session session, RunInfo.Ending ending, int status) {
        if (!started) {
            started = true;
            new RecordingEnd(session, ending, status).start();
        }
    }

    @Override
    public void run() {
        long seen = -1;
        int quiet = 0;
        while (quiet < QUIET_CHECKS) {
            try {
                Thread.sleep(CHECK_MILLIS);
            } catch (InterruptedException e) {
                // only the time matters
            }
            long progress = progress();
            quiet = progress >= 0 && progress == seen ? quiet + 1 : 0;
            seen = progress;
        }
        Divergence.flushProgramOutput();
        Divergence.message("the recording ends here: the recorded run " + ending.describe(status) + "; "
                + where() + "; exiting with its status " + status);
        if (ending.exitRan()) {
            System.exit(status);
        }
        Runtime.getRuntime().halt(status);
    }

    /** Events replayed so far, or -1 while a recorded thread may still replay more. */
    private long progress() {
        long sum = SyncOrder.totalProgress();
        for (ThreadCtx ctx : session.threads()) {
            if (ctx.thread != null && ctx.thread.isAlive() && !ctx.awaitingExit
                    && ctx.thread.getState() == Thread.State.RUNNABLE) {
                return -1;
            }
            sum += ctx.eventNo;
        }
        return sum;
    }

    /** The threads that reached the end of their streams, with the events each replayed. */
    private String where() {
        StringBuilder sb = new StringBuilder();
        List<ThreadCtx> all = session.threads();
        int cut = 0;
        for (ThreadCtx ctx : all) {
            if (ctx.awaitingExit) {
                if (cut < NAMED) {
                    sb.append(cut == 0 ? "" : ", ").append(ctx.path).append(" (").append(ctx.eventNo).append(" events)");
                }
                cut++;
            }
        }
        if (cut > NAMED) {
            sb.append(" and ").append(cut - NAMED).append(" more");
        }
        return "replayed to the end of the stream of " + (cut == 1 ? "thread " : cut + " threads: ") + sb;
    }
}
