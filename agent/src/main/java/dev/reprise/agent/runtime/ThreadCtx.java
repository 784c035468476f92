package dev.reprise.agent.runtime;

/** Per-thread state: the thread's path, its event stream, and the interception depth. */
public final class ThreadCtx {
    /** Shared by every thread that is not recorded: its depth never reaches zero. */
    static final ThreadCtx UNRECORDED = new ThreadCtx(null, -1, null, false);

    final String path;
    /** For the context of a class's static initializer ({@link ClassInits}): the class, else null. */
    final String initializing;
    /**
     * For such a context, a JDK class's: quiet, unordered, and without an index
     * ({@link ClassInits#enter}); an application class's is ordered.
     */
    final boolean jdkInit;
    /** For such a context: the context to restore when the initializer ends. */
    ThreadCtx outer;
    /** For such a context: whether it keeps the running thread's {@code ThreadLocalRandom} state, its seed and probes ({@link ThreadRandoms#enterInit}). */
    boolean keepsRandoms;
    long outerSeed;
    long outerProbes;
    /** Non-zero while an intercepted call (or Reprise's own work) runs on this thread. */
    int depth;
    /**
     * The depth at which this context runs the program's own code: 0, but 1 for a replay's JDK
     * class initializer that the recording holds no events for, which runs live as inside an
     * event, yet gives identity hashes and opens nested initializers' contexts as the recording's
     * did at depth 0 ({@link ClassInits}).
     */
    int baseDepth;
    /** Number of threads this thread has started: names the next child's path. */
    int children;
    /** Objects this context registered for a cleanup that runs the program's code: names the next one's key ({@link Cleanups}). */
    int cleanups;
    /**
     * Creation order among recorded threads (main is 0): names the thread in ordering edges. An
     * application class initializer's context has one too, from the top down
     * ({@link Threads#takeInitIndex}); a JDK class initializer's, which orders nothing, has -1,
     * as has, on replay, an application class initializer's that the recording holds no events for.
     */
    final int index;
    /** Synchronization events this thread has completed. */
    long syncCount;
    /** Replay, while waiting for a turn: the TO sequence number, or -1. */
    long awaitSeq = -1;
    /**
     * Replay, while waiting for a turn: the events it waits for, as each one's thread index (-1:
     * none) and count; the first {@code awaitEdges} entries count. Written before the thread
     * publishes itself as parked ({@code Waiter}), so the threads that wake it read them.
     */
    final int[] awaitThreads = new int[SyncOrder.MAX_EDGES];
    final long[] awaitCounts = new long[SyncOrder.MAX_EDGES];
    int awaitEdges;
    /** Replay: the thread waits at the end of its stream for the program's exit. */
    volatile boolean awaitingExit;
    /**
     * The monitor of the {@code wait} whose event is beginning ({@link Ordered#beginWait}), else
     * null. Replay: a thread whose stream ends there was waiting at the exit's cut, the monitor
     * released.
     */
    Object waitMonitor;
    /**
     * The four resources whose slots this thread computed last, newest first, and those slots
     * ({@link SyncOrder#slotOf}). Fields rather than arrays: checked on every action.
     */
    Object resource0;
    Object resource1;
    Object resource2;
    Object resource3;
    int slot0;
    int slot1;
    int slot2;
    int slot3;
    /** The slot of the monitor being acquired, between the before- and after-acquire hooks (its values as {@link #actionSlot}'s). */
    int pendingSlot;
    /** Depth of ordered methods running in the current ordered-method event, or 0. */
    int orderedNest;
    /** The slot of the ordered operation in progress ({@link Ordered#enter}), or -1. */
    int orderedSlot = -1;
    /**
     * The slot of the synchronization action in progress ({@link SyncActions}):
     * {@link SyncOrder#NO_SLOT} for one of main alone, which takes no lock, {@link SyncOrder#TAKEN}
     * for one taken without an event, {@link SyncOrder#UNLOCKED} for a read without the slot's
     * lock; -1 if none.
     */
    int actionSlot = -1;
    /** Actions begun, and not yet exited, inside the action in progress: they are no events. */
    int actionNest;
    /** Non-zero while the JDK's own calls into java.util.concurrent run: their synchronization is not ordered ({@link SyncActions#quiet}). */
    int quiet;
    /** The thread's probes as the outermost quiet call began ({@link ThreadRandoms#probes}), put back as it ends. */
    long quietProbes;
    /** Non-zero while the JDK's own calls into the collections the race watch sees run ({@link RaceWatch#unwatched}). */
    int unwatched;
    long eventNo;
    /** Replay under a debugger: the event before which this thread stops ({@link Debuggee}), or -1. */
    long stopBefore = -1;
    /**
     * Record, TO: whether the thread is drawing a turn (through {@code SyncOrder}'s VarHandle);
     * the last turn it drew (-1: none) and that event's number, published by the release that
     * ends the draw. Read by the exit's cut ({@link RecordOrder#cutTurns}).
     */
    boolean drawing;
    long lastTurn = -1;
    long lastTurnEvent;
    /** Objects of each class this thread gave an identity hash: the next one's value derives from it. */
    final ClassCounters hashCounters = new ClassCounters();
    /**
     * The thread's events, of the session's role ({@link Session#bind}); null for
     * {@link #UNRECORDED}, whose depth never lets an event begin. Set before the context is
     * published to other threads.
     */
    Ev ev;
    final Thread thread;
    /** {@link #thread}'s id ({@link Rt#tid}), or -1 for {@link #UNRECORDED}: kept for main's fast path ({@link AloneMain#take}). */
    final long tid;
    /** Record, RTO: the slots this thread reads without their locks ({@link UnlockedReads}); null until it registers as a reader. */
    UnlockedReads.Reader reader;
    /** Record, learning races: per thread index, the highest count of its events this thread is ordered after ({@link RaceWatch}). */
    long[] seen;
    /** Under {@code --chaos}: this thread's source of delays; null otherwise. */
    Chaos chaos;

    ThreadCtx(String path, int index, String initializing, boolean jdkInit) {
        this.path = path;
        this.initializing = initializing;
        this.jdkInit = jdkInit;
        this.quiet = jdkInit ? 1 : 0;
        this.index = index;
        this.thread = path == null ? null : Thread.currentThread();
        this.tid = thread == null ? -1 : Rt.tid(thread);
        this.depth = path == null ? 1 : 0;
    }

    /**
     * For the report of a replay that cannot progress: what the thread waits for, or null. Built
     * only then, from the turn fields, so waiting costs no allocation. A thread waited for is
     * named by its path, with what it was last doing ({@code others}: every context, to find it).
     */
    String waitDescription(java.util.List<ThreadCtx> others) {
        if (awaitingExit) {
            return "the program to exit (its recording ends while it still ran)";
        }
        if (awaitSeq >= 0) {
            return "turn " + awaitSeq + " of the total order";
        }
        int edge = ReplayOrder.unmetEdge(this);
        if (edge < 0) {
            return null;
        }
        int index = awaitThreads[edge];
        ThreadCtx other = null;
        for (ThreadCtx t : others) {
            if (t.index == index) {
                other = t;
            }
        }
        String path = other != null ? other.path : Threads.pathOf(index);
        if (path == null) {
            return "a class initializer, which has not started, to complete its synchronization event " + awaitCounts[edge];
        }
        String name = path.startsWith("init-") ? "the static initializer of " + path.substring("init-".length())
                : path.startsWith(Cleanups.PREFIX) ? "the cleanups (finalizers, cleaners) of stream " + path : "thread " + path;
        return name + " to complete its synchronization event " + awaitCounts[edge] + ", which "
                + (other == null ? "has not started" : other.lastDid());
    }

    /**
     * The thread's last event's operation and site, and whether it ended. Read from another
     * thread while neither progresses: plain fields, a snapshot good enough for a report.
     */
    String lastDid() {
        String last = eventNo == 0 ? "has made no event yet" : "last did " + ev.lastOpened() + " (event " + eventNo + ")";
        return thread == null || !thread.isAlive() ? "ended; it " + last : last;
    }

    /** What this thread does, as a stall report says it: its last event, and what it waits for or that it runs. */
    String state(java.util.List<ThreadCtx> others) {
        if (thread == null || !thread.isAlive()) {
            return lastDid();
        }
        String waiting = waitDescription(others);
        if (waiting != null) {
            return lastDid() + ", and waits for " + waiting;
        }
        return lastDid() + ", and " + switch (thread.getState()) {
            case RUNNABLE -> "runs the program";
            case BLOCKED -> "is blocked on a monitor";
            default -> "waits in the program";
        };
    }

    /** Replay: whether the thread runs the program's code, rather than waiting for a turn, a monitor or the exit. */
    boolean runsProgram() {
        return thread != null && thread.getState() == Thread.State.RUNNABLE && !awaitingExit && awaitSeq < 0
                && ReplayOrder.unmetEdge(this) < 0;
    }
}
