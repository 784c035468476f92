package dev.reprise.agent.runtime.ordering;

import dev.reprise.agent.runtime.events.AloneEnd;
import dev.reprise.agent.runtime.events.ReplayEv;
import dev.reprise.agent.runtime.events.Rt;
import dev.reprise.agent.runtime.events.Session;
import dev.reprise.agent.runtime.events.ThreadCtx;
import dev.reprise.agent.runtime.identity.WeakIdentityTable;

/**
 * Names recorded threads by creation path: main is {@code 1}, the third thread that main starts is
 * {@code 1.3}. Paths survive renaming and differ from thread ids, so replay matches threads
 * whatever names the program gives them. A thread is recorded when a recorded thread started it;
 * JVM-internal threads and Reprise's own are not.
 */
public final class Threads {
    /**
     * A recorded thread's names (creation path and creation index) and, once it ran, its context:
     * kept here too, since pool threads may erase their thread locals between tasks (the common
     * ForkJoinPool's workers do), and a second context would start the thread's stream over.
     */
    static final class Registration {
        final String path;
        final int index;
        /** The thread's id as recorded, or -1 to use the JVM's (the main thread). */
        final long id;
        /** Written and read only by the registered thread itself. */
        ThreadCtx ctx;
        /** Record: the event that started the thread is in its parent's stream ({@link #announced}). */
        volatile boolean announced;
        /** Record, learning races: what the thread has seen as it begins ({@link RaceWatch#inherited}); the PATHS table publishes it. */
        long[] seen;

        Registration(String path, int index, long id) {
            this.path = path;
            this.index = index;
            this.id = id;
        }
    }

    private static final WeakIdentityTable<Registration> PATHS = new WeakIdentityTable<>();
    /** See {@link #othersStarted}. */
    private static volatile boolean othersStarted;
    /** When cleanups stop waiting for main to end its alone phase, once one asked ({@link #endAlone}); guarded by the class. */
    private static long aloneEndDeadline;
    /** When the first cleanup asks main to end its alone phase ({@link #endAlone}); guarded by the class. */
    private static long aloneEndAsked;
    /** Whether a cleanup has asked main to end its alone phase; guarded by the class. */
    private static boolean aloneEndWanted;
    /** Whether the program asked for a collection: held cleanups go ahead ({@link #endAlone}). */
    private static volatile boolean cleanupsWanted;
    /** Next creation index; registrations happen inside ordered thread-start events, so in the same order on replay. */
    private static volatile int nextIndex = 1;
    /**
     * The lowest index an application class initializer's stream has taken ({@code ClassInits}):
     * those count down from the top, apart from the threads'. Recording takes them as
     * initializers start, in no order a replay could repeat, so each stream names its own
     * ({@link ReplayEv#readInitIndex}); replay lowers this as it reads them. Guarded by the class.
     */
    private static volatile int initFloor = SyncOrder.MAX_THREADS;
    /** Recorded threads' paths by creation index, for reports ({@link #pathOf}); guarded by the class. */
    private static String[] pathByIndex = {"1"};
    /** Record: indexes of initializers that logged nothing, free to take again; guarded by the class. */
    private static int[] freeInit = new int[16];
    private static int freeInitCount;

    private Threads() {
    }

    /** Registers the thread that runs premain as the program's main thread. */
    public static void registerMain(Thread t) {
        Registration main = new Registration("1", 0, -1);
        main.announced = true;
        PATHS.put(t, main);
    }

    /**
     * Called by the parent before {@code child} starts; returns the child's path. {@code id} is
     * the child's id as recorded: the JVM numbers every thread it makes, Reprise's own and its
     * lazily started helpers included, which differ between a recording and its replays.
     */
    public static String registerChild(ThreadCtx parent, Thread child, long id) {
        String path = parent.path + "." + (++parent.children);
        int index;
        synchronized (Threads.class) {
            index = nextIndex++;
        }
        if (index >= initFloor) {
            throw new IllegalStateException("more than " + SyncOrder.MAX_THREADS + " recorded threads and class initializers");
        }
        remember(index, path);
        Registration r = new Registration(path, index, id);
        r.seen = RaceWatch.inherited(parent);
        PATHS.put(child, r);
        return path;
    }

    /**
     * Registers a shutdown hook that a JDK class initializer adds (the logging manager's cleaner).
     * Nothing orders that registration against the program's thread starts (which thread runs the
     * initializer, and when, is the JVM's race, and Reprise's own work differs between recording
     * and replay), so an index from their sequence would shift theirs: it takes one from the top,
     * as an application initializer's stream does, and its event keeps it. {@code recorded} is that
     * index on replay, -1 when recording. Returns the index, or -1 if no recording could have it.
     */
    public static int registerUnorderedChild(ThreadCtx parent, Thread child, long id, int recorded) {
        int index;
        if (recorded < 0) {
            index = takeInitIndex();
        } else if (initIndexRead(recorded)) {
            index = recorded;
        } else {
            return -1;
        }
        PATHS.put(child, new Registration(parent.path + "." + (++parent.children), index, id));
        return index;
    }

    /**
     * Record: an index for an application class initializer's stream. One that logged nothing is
     * given back ({@link #releaseInitIndex}): no event, slot or edge names it, and most
     * initializers log nothing, so the indexes in use stay few however many classes load.
     */
    public static synchronized int takeInitIndex() {
        if (freeInitCount > 0) {
            return freeInit[--freeInitCount];
        }
        int index = initFloor - 1;
        if (index < nextIndex) {
            throw new IllegalStateException("more than " + SyncOrder.MAX_THREADS + " recorded threads and class initializers");
        }
        initFloor = index;
        return index;
    }

    /** Record: gives back the index of an initializer that logged nothing. */
    public static synchronized void releaseInitIndex(int index) {
        if (freeInitCount == freeInit.length) {
            freeInit = java.util.Arrays.copyOf(freeInit, freeInitCount * 2);
        }
        freeInit[freeInitCount++] = index;
    }

    /** Replay: an initializer's stream named {@code index}; false if no recording could have. */
    public static synchronized boolean initIndexRead(int index) {
        if (index < nextIndex || index >= SyncOrder.MAX_THREADS) {
            return false;
        }
        initFloor = Math.min(initFloor, index);
        return true;
    }

    private static synchronized void remember(int index, String path) {
        if (index >= pathByIndex.length) {
            pathByIndex = java.util.Arrays.copyOf(pathByIndex, Math.min(2 * index, SyncOrder.MAX_THREADS));
        }
        pathByIndex[index] = path;
    }

    /** The path of the recorded thread with creation index {@code index}, or null if there is none (yet). */
    public static synchronized String pathOf(int index) {
        return index >= 0 && index < pathByIndex.length ? pathByIndex[index] : null;
    }

    /** The lowest index an initializer's stream has: every one is at least this, and below {@link SyncOrder#MAX_THREADS}. */
    static int initFloor() {
        return initFloor;
    }

    /**
     * Called by the parent once the event that started {@code child} (or registered it as a
     * shutdown hook) is committed to its stream. Until then the child logs nothing ({@link #BINDER}
     * waits for it as it makes the child's context): if the exit cut the parent's stream before
     * that event, a replay would never start the child, and whatever the child recorded would
     * never run.
     */
    public static void announced(Thread child) {
        Registration r = PATHS.get(child);
        if (r != null) {
            r.announced = true;
        }
    }

    /** {@code t}'s creation index, or -1 for a thread that is not recorded. */
    static int indexOf(Thread t) {
        Registration r = PATHS.get(t);
        return r == null ? -1 : r.index;
    }

    /**
     * Called by the parent just before {@code child} starts: a recorded thread other than main
     * now runs, or soon will ({@link #othersStarted}).
     */
    public static void starting(Thread child) {
        if (!othersStarted && PATHS.get(child) != null) {
            endAlonePhase("main started its first thread");
        }
    }

    /**
     * Whether a recorded thread other than main has started, or main's alone phase ended for a
     * cleanup ({@link #ALONE_ENDER}). Set by main, as it starts the thread or as that event ends:
     * main reads its own write, and a cleanup's thread waiting for it reads the volatile.
     */
    public static boolean othersStarted() {
        return othersStarted;
    }

    /**
     * Record, RTO, on a thread about to run a keyed cleanup while main runs alone: waits until
     * {@code deferMillis} after the first cleanup came, for main to start a thread, unless the
     * program asked for a collection ({@link #cleanupsWanted}), then asks
     * main to end its alone phase, which it does at its next written event, and waits up to
     * {@code millis} more for it. A cleanup cannot be ordered against main's alone actions, which
     * leave no trace; once the phase ended, it is ordered as a started thread's events are. Main
     * answers at its next event ({@link AloneEnd}): a synchronization event it would have counted
     * is written instead, after the mark. Every cleanup's thread waits up to the first one's
     * deadline, so that none runs unrecorded beside one that is recorded (a finalizer and a
     * cleaner's action at once). Main may make no event for long (blocked in a read, a long
     * sleep): past the deadline, cleanups run unrecorded until main answers.
     */
    public static boolean endAlone(long deferMillis, long millis) {
        long asked;
        long deadline;
        synchronized (Threads.class) {
            if (aloneEndDeadline == 0) {
                aloneEndAsked = System.nanoTime() + deferMillis * 1_000_000;
                aloneEndDeadline = aloneEndAsked + millis * 1_000_000;
            }
            asked = aloneEndAsked;
            deadline = aloneEndDeadline;
        }
        // The JVM runs finalizers and cleaners when it likes: a cleanup that waits first lets
        // main run alone longer, all of a short program's run, and main may start a thread
        // meanwhile; unless the program asked for a collection, whose cleanups it then awaits.
        while (!cleanupsWanted && !othersStarted && System.nanoTime() - asked < 0 && pause()) {
            // held
        }
        synchronized (Threads.class) {
            if (!othersStarted && !aloneEndWanted) {
                ThreadCtx main = null;
                for (ThreadCtx c : Session.current().threads()) {
                    if (c.index == 0 && c.initializing == null) {
                        main = c;
                    }
                }
                if (main == null) {
                    return false;
                }
                aloneEndWanted = true;
                AloneEnd.want(main);
            }
        }
        waitForOthers(deadline);
        return othersStarted;
    }

    /** Waits until a recorded thread other than main started, or main's alone phase ended, or {@code deadline} ({@code System.nanoTime}). */
    private static void waitForOthers(long deadline) {
        while (!othersStarted && System.nanoTime() - deadline < 0 && pause()) {
            // waiting
        }
    }

    /** Sleeps a millisecond; false if interrupted, which ends the wait. */
    private static boolean pause() {
        try {
            Thread.sleep(1);
            return true;
        } catch (InterruptedException e) {
            return false;
        }
    }

    /** The program asked for a collection or for finalization ({@code ops/classes/CollectionRequests}). */
    public static void cleanupsWanted() {
        cleanupsWanted = true;
    }

    /**
     * On main, as the event its stream marks ends ({@link AloneEnd}): the alone phase ends.
     * Installed at start-up; a class, so that no lambda is bootstrapped.
     */
    public static final Runnable ALONE_ENDER = new AloneEnder();

    private static final class AloneEnder implements Runnable {
        @Override
        public void run() {
            if (!othersStarted) {
                endAlonePhase("main ended its alone phase for a cleanup");
            }
        }
    }

    /** On main: its alone phase ends, and a cleanup that asked for that finds it ended. */
    private static void endAlonePhase(String why) {
        othersStarted = true;
        AloneEnd.clear();
        AloneMain.ends(why);
    }

    /** How many creation indexes are taken: every recorded thread's index is below it ({@link #initFloor} for initializers'). */
    static int indexes() {
        return nextIndex;
    }

    /** A recorded thread's id as recorded, or -1 for the JVM's own. */
    public static long recordedId(Thread t) {
        Registration r = PATHS.get(t);
        return r == null ? -1 : r.id;
    }

    /**
     * Binds threads to their contexts for {@link Rt}: this registry makes them, and main's fast
     * path learns which one runs ({@link AloneMain#running}). Installed by the session at start-up.
     */
    public static final Rt.Binder BINDER = new Binder();

    private static final class Binder implements Rt.Binder {
        @Override
        public ThreadCtx contextForCurrentThread() {
            Registration r = PATHS.get(Thread.currentThread());
            Session s = Session.current();
            if (r == null || s == null) {
                return ThreadCtx.UNRECORDED;
            }
            if (r.ctx == null) {
                if (!s.replaying()) {
                    Waiter.awaitAnnounced(r);
                }
                r.ctx = s.openThread(r.path, r.index);
                RaceWatch.opened(r.ctx, r.seen);
                ThreadRandoms.opened(r.path);
            }
            return r.ctx;
        }

        @Override
        public void running(ThreadCtx ctx) {
            AloneMain.running(ctx);
        }
    }
}
