package dev.reprise.agent.runtime.session;

import dev.reprise.agent.runtime.contexts.Cleanups;
import dev.reprise.agent.runtime.events.Debuggee;
import dev.reprise.agent.runtime.events.Divergence;
import dev.reprise.agent.runtime.events.Session;
import dev.reprise.agent.runtime.events.ThreadCtx;
import dev.reprise.agent.runtime.jdk.OwnThreads;
import dev.reprise.agent.runtime.ordering.ReplayOrder;
import dev.reprise.agent.runtime.ordering.Threads;
import dev.reprise.agent.runtime.ordering.Waiter;

import java.util.List;

/**
 * Replay: stops a replay that can make no progress, wherever its threads are held: waiting for a
 * turn ({@link Waiter}), or blocked for real (on a monitor, in a join) behind a thread that waits
 * for one. A daemon thread of Reprise's own, not recorded, looks every half second at the
 * program's progress: the synchronization events completed and the events replayed. If it has not
 * moved for {@value #STALL_SECONDS} seconds while no recorded thread runs the program's code, the
 * replay is stuck and reported, as a divergence is. A thread that runs may be computing
 * between events, or spinning on a plain field the recorded order no longer lets change: only
 * after {@value #RUNNING_STALL_SECONDS} seconds is that reported. While a debugger holds threads
 * suspended ({@link Debuggee#held}), the others waiting for them is no stall.
 */
final class StallWatch implements Runnable {
    static final int STALL_SECONDS = 5;
    static final int RUNNING_STALL_SECONDS = 60;
    private static final long LOOK_MILLIS = 500;
    /** The most frames of each thread's stack a stall report shows. */
    private static final int STALLED_FRAMES = 8;

    private StallWatch() {
    }

    /** Starts the watch; before interception is active, so that making its thread is no event. */
    static void start() {
        OwnThreads.daemon(new StallWatch(), "reprise-stall-watch").start();
    }

    @Override
    public void run() {
        long seen = -1;
        long since = System.nanoTime();
        long looked = since;
        while (true) {
            try {
                Thread.sleep(LOOK_MILLIS);
            } catch (InterruptedException e) {
                return;
            }
            // A look long after the last one: the watch itself was held (a debugger suspended
            // every thread, or the machine slept), and the program with it.
            long before = looked;
            looked = System.nanoTime();
            boolean watchHeld = looked - before > 4 * LOOK_MILLIS * 1_000_000L;
            List<ThreadCtx> threads = Session.current().threads();
            long now = progress(threads);
            if (now != seen || Debuggee.held || watchHeld) {
                seen = now;
                since = System.nanoTime();
                continue;
            }
            long stalled = System.nanoTime() - since;
            if (stalled > RUNNING_STALL_SECONDS * 1_000_000_000L) {
                stalled(threads, RUNNING_STALL_SECONDS);
            } else if (stalled > STALL_SECONDS * 1_000_000_000L && !programRuns(threads)) {
                stalled(threads, STALL_SECONDS);
            }
        }
    }

    /**
     * A number that grows while the replay progresses. The events replayed are read from other
     * threads' plain fields: a late value only postpones the verdict by one look.
     */
    private static long progress(List<ThreadCtx> threads) {
        long sum = ReplayOrder.totalProgress();
        for (ThreadCtx t : threads) {
            sum += t.eventNo;
        }
        return sum;
    }

    /**
     * Whether some recorded thread runs the program's code ({@link #runsProgram}). A
     * class initializer's context is skipped: the thread that runs it is judged by its own.
     */
    private static boolean programRuns(List<ThreadCtx> threads) {
        for (ThreadCtx t : threads) {
            if (t.initializing == null && runsProgram(t)) {
                return true;
            }
        }
        return false;
    }

    /** Whether {@code t}'s thread runs the program's code, rather than waiting for a turn, a monitor or the exit. */
    private static boolean runsProgram(ThreadCtx t) {
        return t.thread != null && t.thread.getState() == Thread.State.RUNNABLE && !t.awaitingExit && t.awaitSeq < 0
                && ReplayOrder.unmetEdge(t) < 0;
    }

    /**
     * No replayed thread has made progress for {@code seconds}: reports what each one does,
     * where, and for each wait, what the thread waited for last did, and stops the replay as a
     * divergence does. Threads are named by path, as {@code reprise inspect} lists them.
     */
    private static void stalled(List<ThreadCtx> threads, int seconds) {
        StringBuilder sb = new StringBuilder("replay is stuck: no thread has made progress for " + seconds + " s; threads:");
        for (ThreadCtx t : threads) {
            sb.append("\n    ").append(t.initializing != null ? "" : "thread ").append(t.path).append(": ").append(state(t, threads));
            if (t.initializing == null && t.thread != null && t.thread.isAlive()) {
                appendWhere(sb, t.thread.getStackTrace());
            }
        }
        Divergence.message(sb.toString());
        Runtime.getRuntime().halt(Divergence.EXIT_DIVERGED);
    }

    /** The top of a stalled thread's stack, Reprise's frames left out, down to the program's first frame. */
    private static void appendWhere(StringBuilder sb, StackTraceElement[] stack) {
        int shown = 0;
        for (StackTraceElement e : stack) {
            String c = e.getClassName();
            if (c.startsWith("dev.reprise.") || c.startsWith("java.lang.invoke.")) {
                continue;
            }
            sb.append("\n        at ").append(e);
            if (++shown == STALLED_FRAMES || !OutsideWorld.isJdk(e)) {
                return;
            }
        }
    }

    /** What {@code t}'s thread does, as a stall report says it: its last event, and what it waits for or that it runs. */
    private static String state(ThreadCtx t, List<ThreadCtx> others) {
        if (t.thread == null || !t.thread.isAlive()) {
            return lastDid(t);
        }
        String waiting = waitDescription(t, others);
        if (waiting != null) {
            return lastDid(t) + ", and waits for " + waiting;
        }
        return lastDid(t) + ", and " + switch (t.thread.getState()) {
            case RUNNABLE -> "runs the program";
            case BLOCKED -> "is blocked on a monitor";
            default -> "waits in the program";
        };
    }

    /**
     * What {@code t}'s thread waits for, or null. Built only for the report, from the turn fields,
     * so waiting costs no allocation. A thread waited for is named by its path, with what it was
     * last doing ({@code others}: every context, to find it).
     */
    private static String waitDescription(ThreadCtx t, List<ThreadCtx> others) {
        if (t.awaitingExit) {
            return "the program to exit (its recording ends while it still ran)";
        }
        if (t.awaitSeq >= 0) {
            return "turn " + t.awaitSeq + " of the total order";
        }
        int edge = ReplayOrder.unmetEdge(t);
        if (edge < 0) {
            return null;
        }
        int index = t.awaitThreads[edge];
        ThreadCtx other = null;
        for (ThreadCtx o : others) {
            if (o.index == index) {
                other = o;
            }
        }
        String path = other != null ? other.path : Threads.pathOf(index);
        if (path == null) {
            return "a class initializer, which has not started, to complete its synchronization event " + t.awaitCounts[edge];
        }
        String name = path.startsWith("init-") ? "the static initializer of " + path.substring("init-".length())
                : path.startsWith(Cleanups.PREFIX) ? "the cleanups (finalizers, cleaners) of stream " + path : "thread " + path;
        return name + " to complete its synchronization event " + t.awaitCounts[edge] + ", which "
                + (other == null ? "has not started" : lastDid(other));
    }

    /**
     * The thread's last event's operation and site, and whether it ended. Read from another
     * thread while neither progresses: plain fields, a snapshot good enough for a report.
     */
    private static String lastDid(ThreadCtx t) {
        String last = t.eventNo == 0 ? "has made no event yet" : "last did " + t.ev.lastOpened() + " (event " + t.eventNo + ")";
        return t.thread == null || !t.thread.isAlive() ? "ended; it " + last : last;
    }
}
