package dev.reprise.agent.runtime.events;

/** Per-thread state: the thread's path, its event stream, and the interception depth. */
public final class ThreadCtx {
    /** Shared by every thread that is not recorded: its depth never reaches zero. */
    public static final ThreadCtx UNRECORDED = new ThreadCtx(null, -1, null, false);
    /**
     * The most edges one event can log: a write's, to each other reader since the last write, as
     * many as a memory slot's cache line holds beside its lock and last write ({@code SyncOrder}).
     */
    public static final int MAX_EDGES = 6;

    public final String path;
    /** For the context of a class's static initializer ({@code ClassInits}): the class, else null. */
    public final String initializing;
    /**
     * For such a context, a JDK class's: quiet, unordered, and without an index
     * ({@code ClassInits.enter}); an application class's is ordered.
     */
    public final boolean jdkInit;
    /** For such a context: the context to restore when the initializer ends. */
    public ThreadCtx outer;
    /** For such a context: whether it keeps the running thread's {@code ThreadLocalRandom} state, its seed and probes ({@code ThreadRandoms.enterInit}). */
    public boolean keepsRandoms;
    public long outerSeed;
    public long outerProbes;
    /** Non-zero while an intercepted call (or Reprise's own work) runs on this thread. */
    public int depth;
    /**
     * The depth at which this context runs the program's own code: 0, but 1 for a replay's JDK
     * class initializer that the recording holds no events for, which runs live as inside an
     * event, yet gives identity hashes and opens nested initializers' contexts as the recording's
     * did at depth 0 ({@code ClassInits}).
     */
    public int baseDepth;
    /** Set when a replay threw its recording's stack overflow ({@code ReplayEv}), until the program's handler catches it ({@code Overflows}). */
    public boolean overflowReplayed;
    /** Number of threads this thread has started: names the next child's path. */
    public int children;
    /** Objects this context registered for a cleanup that runs the program's code: names the next one's key ({@code Cleanups}). */
    public int cleanups;
    /**
     * Creation order among recorded threads (main is 0): names the thread in ordering edges. An
     * application class initializer's context has one too, from the top down
     * ({@code Threads.takeInitIndex}); a JDK class initializer's, which orders nothing, has -1,
     * as has, on replay, an application class initializer's that the recording holds no events for.
     */
    public final int index;
    /** Synchronization events this thread has completed. */
    public long syncCount;
    /** Replay, while waiting for a turn: the TO sequence number, or -1. */
    public long awaitSeq = -1;
    /**
     * Replay, while waiting for a turn: the events it waits for, as each one's thread index (-1:
     * none) and count; the first {@code awaitEdges} entries count. Written before the thread
     * publishes itself as parked ({@code Waiter}), so the threads that wake it read them.
     */
    public final int[] awaitThreads = new int[MAX_EDGES];
    public final long[] awaitCounts = new long[MAX_EDGES];
    public int awaitEdges;
    /** Replay: the thread waits at the end of its stream for the program's exit. */
    public volatile boolean awaitingExit;
    /**
     * The monitor of the {@code wait} whose event is beginning ({@code Ordered.beginWait}), else
     * null. Replay: a thread whose stream ends there was waiting at the exit's cut, the monitor
     * released.
     */
    public Object waitMonitor;
    /**
     * The four resources whose slots this thread computed last, newest first, and those slots
     * ({@code SyncOrder.slotOf}). Fields rather than arrays: checked on every action.
     */
    public Object resource0;
    public Object resource1;
    public Object resource2;
    public Object resource3;
    public int slot0;
    public int slot1;
    public int slot2;
    public int slot3;
    /** The slot of the monitor being acquired, between the before- and after-acquire hooks (its values as {@link #actionSlot}'s). */
    public int pendingSlot;
    /** Depth of ordered methods running in the current ordered-method event, or 0. */
    int orderedNest;
    /** The slot of the ordered operation in progress ({@code Ordered.enter}), or -1. */
    public int orderedSlot = -1;
    /**
     * The slot of the synchronization action in progress ({@code SyncActions}):
     * {@code SyncOrder.NO_SLOT} for one of main alone, which takes no lock, {@code SyncOrder.TAKEN}
     * for one taken without an event, {@code SyncOrder.UNLOCKED} for a read without the slot's
     * lock; -1 if none.
     */
    public int actionSlot = -1;
    /** Actions begun, and not yet exited, inside the action in progress: they are no events. */
    public int actionNest;
    /** Non-zero while the JDK's own calls into java.util.concurrent run: their synchronization is not ordered ({@code SyncActions.quiet}). */
    public int quiet;
    /** The thread's probes as the outermost quiet call began ({@code ThreadRandoms.probes}), put back as it ends. */
    public long quietProbes;
    /** Non-zero while the JDK's own calls into the collections the race watch sees run ({@code RaceWatch.unwatched}). */
    public int unwatched;
    public long eventNo;
    /** This thread has raised, or found raised, {@code sun.misc.Unsafe}'s first-use warning flag ({@code UnsafeWarningOps}). */
    public boolean unsafeWarned;
    /** Replay under a debugger: the event before which this thread stops ({@link Debuggee}), or -1. */
    public long stopBefore = -1;
    /**
     * Record, TO: whether the thread is drawing a turn (through {@code SyncOrder}'s VarHandle);
     * the last turn it drew (-1: none) and that event's number, published by the release that
     * ends the draw. Read by the exit's cut ({@code RecordOrder.cutTurns}).
     */
    public boolean drawing;
    public long lastTurn = -1;
    public long lastTurnEvent;
    /** Objects of each class this thread gave an identity hash: the next one's value derives from it. */
    public final ClassCounters hashCounters = new ClassCounters();
    /**
     * Objects of each class this thread gave a provisional identity hash since its
     * {@link #syncCount} was {@link #provisionalEpoch} ({@code ProvisionalHashes}).
     */
    public final ClassCounters provisionalCounters = new ClassCounters();
    public long provisionalEpoch;
    /**
     * The thread's events, of the session's role ({@link Session#bind}); null for
     * {@link #UNRECORDED}, whose depth never lets an event begin. Set before the context is
     * published to other threads.
     */
    public Ev ev;
    public final Thread thread;
    /** {@link #thread}'s id ({@link Rt#tid}), or -1 for {@link #UNRECORDED}: kept for main's fast path ({@code AloneMain.take}). */
    public final long tid;
    /**
     * Record, RTO: the slots this thread reads without their locks, an {@code UnlockedReads.Reader};
     * null until it registers as a reader. Typed {@code Object} so that this class need not know
     * the ordering's classes: the cast where it is read is a test against one final class, which
     * the JIT compiles inline.
     */
    public Object reader;
    /** Record, learning races: per thread index, the highest count of its events this thread is ordered after ({@code RaceWatch}). */
    public long[] seen;
    /** Under {@code --chaos}: this thread's source of delays; null otherwise. */
    public Chaos chaos;

    public ThreadCtx(String path, int index, String initializing, boolean jdkInit) {
        this.path = path;
        this.initializing = initializing;
        this.jdkInit = jdkInit;
        this.quiet = jdkInit ? 1 : 0;
        this.index = index;
        this.thread = path == null ? null : Thread.currentThread();
        this.tid = thread == null ? -1 : Rt.tid(thread);
        this.depth = path == null ? 1 : 0;
    }
}
