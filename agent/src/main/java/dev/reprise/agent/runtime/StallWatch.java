package dev.reprise.agent.runtime;

import java.util.List;

/**
 * Replay: stops a replay that can make no progress, wherever its threads are held: waiting for a
 * turn ({@link Waiter}), or blocked for real (on a monitor, in a join) behind a thread that waits
 * for one. A daemon thread of Reprise's own, not recorded, looks every half second at the
 * program's progress: the synchronization events completed and the events replayed. If it has not
 * moved for {@value #STALL_SECONDS} seconds while no recorded thread runs the program's code, the
 * replay is stuck and reported ({@link Divergence#stalled}). A thread that runs may be computing
 * between events, or spinning on a plain field the recorded order no longer lets change: only
 * after {@value #RUNNING_STALL_SECONDS} seconds is that reported. While a debugger holds threads
 * suspended ({@link Debuggee#held}), the others waiting for them is no stall.
 */
final class StallWatch implements Runnable {
    static final int STALL_SECONDS = 5;
    static final int RUNNING_STALL_SECONDS = 60;
    private static final long LOOK_MILLIS = 500;

    private StallWatch() {
    }

    /** Starts the watch; before interception is active, so that making its thread is no event. */
    static void start() {
        Thread t = new Thread(new StallWatch(), "reprise-stall-watch");
        t.setDaemon(true);
        t.start();
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
                Divergence.stalled(threads, RUNNING_STALL_SECONDS);
            } else if (stalled > STALL_SECONDS * 1_000_000_000L && !programRuns(threads)) {
                Divergence.stalled(threads, STALL_SECONDS);
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
     * Whether some recorded thread runs the program's code ({@link ThreadCtx#runsProgram}). A
     * class initializer's context is skipped: the thread that runs it is judged by its own.
     */
    private static boolean programRuns(List<ThreadCtx> threads) {
        for (ThreadCtx t : threads) {
            if (t.initializing == null && t.runsProgram()) {
                return true;
            }
        }
        return false;
    }
}
