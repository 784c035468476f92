package dev.reprise.agent.runtime.session;

import dev.reprise.agent.runtime.events.Divergence;
import dev.reprise.agent.runtime.events.Session;
import dev.reprise.agent.runtime.events.ThreadCtx;
import dev.reprise.agent.runtime.jdk.OwnThreads;
import dev.reprise.agent.runtime.ordering.ReplayOrder;

import java.util.List;

/**
 * Replay of a recording that did not complete (the JVM killed, halted or ended by a signal while
 * threads still ran, or the recording cut where writing it failed): every thread replays as far
 * as its stream goes and waits there, since the others may still have events. A watch thread
 * ends the replay once no thread can go further: no recorded thread runnable (the waiting ones
 * park, or block on a monitor a waiting one holds) and no event replayed for
 * {@value #QUIET_CHECKS} checks {@value #CHECK_MILLIS} ms apart. If the recorded run went
 * through its exit (a signal: the program's shutdown hooks ran while its threads still did, and
 * are recorded), the watch then exits with the recorded status, so that the hooks replay, and
 * the other threads go on with whatever they recorded after them; Reprise's own exit waits until
 * they can go no further ({@link #atExit}), and says where the recording ends. Otherwise it says
 * so and halts with the recorded status, as the recorded run ended.
 */
final class RecordingEnd extends Thread {
    private static final long CHECK_MILLIS = 100;
    private static final int QUIET_CHECKS = 5;
    /** How many threads a message names, with the events each replayed. */
    private static final int NAMED = 6;
    private final Session session;
    private final RunInfo.Ending ending;
    private final int status;

    private RecordingEnd(Session session, RunInfo.Ending ending, int status) {
        super(OwnThreads.GROUP, "reprise-recording-end");
        this.session = session;
        this.ending = ending;
        this.status = status;
        setDaemon(true);
    }

    /** Starts the watch; called before interception starts, so its thread is not the program's. */
    static void watch(Session session, RunInfo.Ending ending, int status) {
        new RecordingEnd(session, ending, status).start();
    }

    @Override
    public void run() {
        awaitQuiet(session);
        if (ending.exitRan()) {
            System.exit(status);
        }
        report(session, ending, status);
        Runtime.getRuntime().halt(status);
    }

    /** Reprise's exit in such a replay: once no thread can go further, says where the recording ended. */
    static void atExit(Session session, RunInfo.Ending ending, int status) {
        awaitQuiet(session);
        report(session, ending, status);
    }

    private static void report(Session session, RunInfo.Ending ending, int status) {
        Divergence.message("the recording ends here: the recorded run " + ending.describe(status) + "; "
                + where(session) + "; exiting with its status " + status);
    }

    private static void awaitQuiet(Session session) {
        long seen = -1;
        int quiet = 0;
        while (quiet < QUIET_CHECKS) {
            try {
                Thread.sleep(CHECK_MILLIS);
            } catch (InterruptedException e) {
                // only the time matters
            }
            long progress = progress(session);
            quiet = progress >= 0 && progress == seen ? quiet + 1 : 0;
            seen = progress;
        }
    }

    /** Events replayed so far, or -1 while a recorded thread may still replay more. */
    private static long progress(Session session) {
        long sum = ReplayOrder.totalProgress();
        List<ThreadCtx> all = session.threads();
        if (all.isEmpty()) {
            return -1; // the program has not started: premain may take seconds instrumenting
        }
        for (ThreadCtx ctx : all) {
            if (ctx.thread != null && ctx.thread.isAlive() && !ctx.awaitingExit
                    && ctx.thread.getState() == Thread.State.RUNNABLE) {
                return -1;
            }
            sum += ctx.eventNo;
        }
        return sum;
    }

    /**
     * The threads that reached the end of their streams, and those that wait for an event the
     * recording lost, with the events each replayed.
     */
    private static String where(Session session) {
        List<ThreadCtx> all = session.threads();
        // By path, not in the order the threads opened their streams, which varies between replays.
        all.sort(new java.util.Comparator<ThreadCtx>() {
            @Override
            public int compare(ThreadCtx a, ThreadCtx b) {
                return a.path.compareTo(b.path);
            }
        });
        StringBuilder ended = new StringBuilder();
        StringBuilder waiting = new StringBuilder();
        for (ThreadCtx ctx : all) {
            if (ctx.awaitingExit) {
                name(ended, ctx);
            } else if (ctx.initializing == null && ctx.thread != null && ctx.thread.isAlive()) {
                name(waiting, ctx);
            }
        }
        String where = ended.length() == 0 ? "" : "threads at the end of their streams: " + ended;
        if (waiting.length() > 0) {
            where += (where.isEmpty() ? "" : "; ") + "threads waiting for events the recording lost: " + waiting;
        }
        return where.isEmpty() ? "every thread replayed to its end" : where;
    }

    /** Adds {@code ctx}, with its events, to a list of at most {@value #NAMED} threads. */
    private static void name(StringBuilder list, ThreadCtx ctx) {
        int named = list.length() == 0 ? 0 : list.toString().split(", ").length;
        if (named < NAMED) {
            list.append(named == 0 ? "" : ", ").append(ctx.path).append(" (").append(ctx.eventNo).append(" events)");
        } else if (named == NAMED) {
            list.append(", ...");
        }
    }
}
