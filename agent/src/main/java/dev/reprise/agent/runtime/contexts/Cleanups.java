package dev.reprise.agent.runtime.contexts;

import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Set;

import dev.reprise.agent.runtime.events.Divergence;
import dev.reprise.agent.runtime.events.Ev;
import dev.reprise.agent.runtime.events.Op;
import dev.reprise.agent.runtime.events.ReplayEv;
import dev.reprise.agent.runtime.events.Rt;
import dev.reprise.agent.runtime.events.Session;
import dev.reprise.agent.runtime.events.ThreadCtx;
import dev.reprise.agent.runtime.identity.IdentityHashes;
import dev.reprise.agent.runtime.identity.WeakIdentityTable;
import dev.reprise.agent.runtime.jdk.OwnThreads;
import dev.reprise.agent.runtime.ordering.SyncOrder;
import dev.reprise.agent.runtime.ordering.Threads;
import dev.reprise.agent.runtime.ordering.Waiter;
import dev.reprise.core.config.Order;

/**
 * Cleanups: a {@code finalize} method, or a {@code Cleaner}'s action, that a thread Reprise does
 * not record (the JVM's finalizer, a cleaner's thread) runs on one of the program's objects once
 * the collector found it unreachable. When that happens depends on collections, which a replay
 * does not repeat, yet the cleanup runs the program's code: an executor the program dropped
 * shuts its pool down, and its worker sees that at some point of its own run.
 *
 * <p>An object whose cleanup runs the program's code (which one does is the hooks' choice) gets a
 * key as it is registered: the path of the context that registered it, and how many it had
 * registered before. That is the same point of the program on replay, so the same key: only
 * registrations at the program's own depth count, outside the JDK's quiet calls.
 *
 * <p>Recording, the thread about to run a keyed cleanup runs it in a context of its own, one per
 * such thread, whose stream is named {@code cleanup-N} and begins with an index taken as an
 * application class initializer's is ({@link Threads#takeInitIndex}), so the cleanup's events
 * are ordered against the program's threads and theirs against it. Each cleanup begins with an
 * event naming its key and, for every recorded thread, how many synchronization events it had
 * completed: the cleanup began after those, whatever it then synchronizes on. Under RTO, while
 * main still runs alone, its synchronization leaves no trace, so a cleanup first asks main to end
 * that phase ({@link Threads#endAlone}); one main does not answer in time runs unrecorded. It is
 * held a while before it asks (the JVM promises no time for a cleanup), unless the program asked
 * for a collection: a short program then runs alone to its end, its cleanups never run, as the
 * JVM's exit would leave them.
 *
 * <p>Replaying, the JVM's threads never run a keyed cleanup (the hooks withhold it, and the JDK
 * keeps the object listed, so reachable, until someone runs it). A thread of Reprise's runs each
 * recorded stream instead, under the recorded thread's name: for each cleanup, it waits until
 * every thread has completed those events, then runs the cleanup of the object registered under
 * its key. A keyed object whose cleanup the recording did not run, or ran unrecorded while main
 * did not answer, is never cleaned up: a replay may so hold more memory than its recording did.
 */
public final class Cleanups {
    private static final Op THREAD = Op.named("cleanup.thread");
    private static final Op RUN = Op.named("cleanup.run");
    /** Streams of cleanups are named with this prefix and a number. */
    public static final String PREFIX = "cleanup-";

    /** How a hook's thread goes on with a cleanup ({@link #enter}). */
    public static final int UNKEYED = 0;
    public static final int ENTERED = 1;
    public static final int WITHHELD = 2;

    /** Runs one kind of cleanup on the object its key names: the hooks know the JDK's methods. */
    public interface Runner {
        /**
         * Whether the JDK has finished registering {@code target}: the key is given while the
         * JDK's constructor still runs, and a replay may come to the cleanup that early.
         */
        boolean registered(Object target);

        void run(Object target) throws Throwable;
    }

    /** A keyed object, held weakly, with its key and how its cleanup is run. */
    private static final class Keyed extends WeakReference<Object> {
        final String key;
        final Runner runner;

        Keyed(Object target, String key, Runner runner) {
            super(target);
            this.key = key;
            this.runner = runner;
        }
    }

    /** Every keyed object, by identity: a hook's thread looks its object up here. */
    private static final WeakIdentityTable<Keyed> KEYS = new WeakIdentityTable<>();
    /** Replay: keyed objects whose cleanup has not run, by key. Guarded by itself, whose monitor a driver waits on. */
    private static final HashMap<String, Keyed> BY_KEY = new HashMap<>();
    /**
     * Record: the cleanup context of each unrecorded thread that ran a keyed cleanup. Not a
     * thread local: a cleaner's thread, an {@code InnocuousThread}, erases its own after each
     * cleanup it runs.
     */
    private static final WeakIdentityTable<ThreadCtx> OWN = new WeakIdentityTable<>();
    /** Record: cleanup streams opened so far. Guarded by the class. */
    private static int streams;
    /** Record: cleanups under way, and whether the exit has begun ({@link #close}). Guarded by {@link #RUNNING}. */
    private static final Object RUNNING = new Object();
    private static int running;
    private static boolean closing;
    /**
     * Record, RTO: how long cleanups are held, from the first one's coming, before they ask main
     * to end its alone phase ({@link Threads#endAlone}), and how long they wait then for it.
     */
    private static final long ALONE_DEFER_MILLIS = 2_000;
    private static final long ALONE_WAIT_MILLIS = 2_000;
    /** Record: how long the exit waits for the cleanups under way. */
    private static final long CLOSE_MILLIS = 2_000;

    private Cleanups() {
    }

    /**
     * On a recorded thread, as {@code target} (what the cleanup's thread will be handed: the
     * finalizer's reference, a cleanable) is registered for a cleanup that runs the program's code.
     */
    public static void register(Object target, Runner runner) {
        ThreadCtx ctx = Rt.current();
        if (ctx == ThreadCtx.UNRECORDED || ctx.depth != 0 || ctx.quiet != 0) {
            return;
        }
        String key = ctx.path + "#" + (++ctx.cleanups);
        ctx.depth = 1; // Reprise's own work: the tables' monitors and hashes are not the program's
        try {
            Keyed k = new Keyed(target, key, runner);
            KEYS.put(target, k);
            if (Session.current().replaying()) {
                synchronized (BY_KEY) {
                    BY_KEY.put(key, k);
                    BY_KEY.notifyAll();
                }
            }
        } finally {
            ctx.depth = 0;
        }
    }

    /**
     * On a thread that is not recorded, about to run {@code target}'s cleanup: {@link #UNKEYED}
     * if it has no key, and the thread runs it as before; on replay {@link #WITHHELD}, and the
     * thread must not run it; recording {@link #ENTERED}: the thread now runs in its cleanup
     * context, the cleanup's first event written, and must run the cleanup, then {@link #exit}.
     */
    public static int enter(Object target) {
        Keyed k = KEYS.get(target);
        if (k == null) {
            return UNKEYED;
        }
        Session s = Session.current();
        if (s.replaying()) {
            return WITHHELD;
        }
        if (s.config().order() == Order.RTO && !Threads.othersStarted() && !Threads.endAlone(ALONE_DEFER_MILLIS, ALONE_WAIT_MILLIS)) {
            return UNKEYED;
        }
        synchronized (RUNNING) {
            if (closing) {
                return WITHHELD; // the streams are closing: what it did would not be recorded
            }
            running++;
        }
        Thread self = Thread.currentThread();
        ThreadCtx ctx = OWN.get(self);
        boolean first = ctx == null;
        int hash = 0;
        if (first) {
            String path;
            synchronized (Cleanups.class) {
                path = PREFIX + (++streams);
            }
            ctx = s.openCleanups(path);
            hash = IdentityHashes.cleanupThread(self, path); // before the table fixes a JVM hash on it
            OWN.put(self, ctx);
        }
        Rt.swap(ctx);
        if (first) {
            ctx.depth = 1;
            Ev.begin(ctx, THREAD, 0, 0).s(self.getName());
            ctx.ev.i(hash);
            ctx.ev.end();
        }
        ctx.depth = 1;
        Ev ev = Ev.begin(ctx, RUN, 0, 0);
        ev.s(k.key);
        writeProgress(ev, ctx, s.threads());
        ev.end();
        return ENTERED;
    }

    /** After a cleanup {@link #enter} entered, also when it threw: the thread is unrecorded again. */
    public static void exit() {
        Rt.current().depth = 0;
        Rt.swap(ThreadCtx.UNRECORDED);
        synchronized (RUNNING) {
            running--;
            RUNNING.notifyAll();
        }
    }

    /**
     * Record, as the exit begins, before the streams close: later cleanups are withheld, and
     * those under way are waited for (up to {@link #CLOSE_MILLIS}), so that every cleanup that
     * ran is recorded whole. One still running then (waiting for a lock the exiting thread
     * holds) is cut off, as a thread is.
     */
    public static void close() {
        long deadline = System.nanoTime() + CLOSE_MILLIS * 1_000_000;
        synchronized (RUNNING) {
            closing = true;
            long left;
            while (running > 0 && (left = deadline - System.nanoTime()) > 0) {
                try {
                    RUNNING.wait(Math.max(1, left / 1_000_000));
                } catch (InterruptedException e) {
                    break;
                }
            }
        }
    }

    /**
     * Writes how many synchronization events each recorded thread and cleanup stream has surely
     * completed. A thread counts an event as it begins it ({@code ctx.syncCount}), and may be
     * inside it now (parked in a queue's {@code take} that this very cleanup will interrupt), so
     * one less than its count; and the count is read from a plain field its thread writes: a
     * stale one is lower, and only orders the cleanup after fewer events, each of which did
     * complete before it. Not the class initializers': an index whose stream ends up empty is
     * given back and taken again.
     */
    private static void writeProgress(Ev ev, ThreadCtx self, List<ThreadCtx> all) {
        int[] indexes = new int[all.size()];
        long[] completed = new long[all.size()];
        int n = 0;
        for (ThreadCtx t : all) {
            long c = t.syncCount - 1; // read once: the thread goes on counting
            if (t != self && t.index >= 0 && t.initializing == null && c > 0) {
                indexes[n] = t.index;
                completed[n++] = c;
            }
        }
        ev.i(n);
        for (int i = 0; i < n; i++) {
            ev.i(indexes[i]);
            ev.j(completed[i]);
        }
    }

    /** Replay: the drivers started ({@link #startDrivers}); written once, before the program runs. */
    private static final List<Driver> DRIVERS = new ArrayList<>();
    /** Replay: how long the exit waits for a driver that runs no cleanup of those its stream still holds. */
    private static final long DRAIN_STALL_MILLIS = 10_000;

    /** Replay, once interception is on: a thread of Reprise's for each recorded cleanup stream. */
    public static void startDrivers(Set<String> streamNames) {
        Rt.suppress(); // Reprise's own threads: making and starting them is no event of main's
        try {
            for (String path : streamNames) {
                if (path.startsWith(PREFIX)) {
                    Driver d = new Driver(path);
                    DRIVERS.add(d);
                    OwnThreads.daemon(d, "reprise-" + path).start();
                }
            }
        } finally {
            Rt.unsuppress();
        }
    }

    /**
     * Replay, at the program's exit: waits until every driver has run all its stream's cleanups,
     * or waits at its stream's end for the exit (a cleanup the recording's exit cut off), however
     * far behind it is (a busy machine, chaos delays), and reports one that ran none for
     * {@link #DRAIN_STALL_MILLIS}. The recording's cleanups all came before its exit, but nothing
     * orders the exit after them: a daemon thread's lag would let a replay end without a
     * cleanup's output, and differ silently.
     */
    public static void drain() {
        for (Driver d : DRIVERS) {
            long ran = -1;
            long deadline = 0;
            while (!d.idle()) {
                long now = System.nanoTime();
                if (d.ran != ran) {
                    ran = d.ran;
                    deadline = now + DRAIN_STALL_MILLIS * 1_000_000;
                } else if (now - deadline > 0) {
                    Divergence.cleanupsLeft(d.ctx);
                }
                sleep();
            }
        }
    }

    private static void sleep() {
        try {
            Thread.sleep(1);
        } catch (InterruptedException e) {
            // Reprise's own waits: nothing interrupts them but the JVM's end
        }
    }

    /**
     * Replay: runs one cleanup stream's cleanups, each at its recorded point. The thread started
     * for the stream reads its first event, then hands the stream to a thread made for it, named
     * and hashed as the recorded cleanup thread was: a thread's hash can be given only while
     * nothing may have hashed it, and the started thread's header may still hold the monitor its
     * start contended for (JDK 17's {@code Thread.start} is synchronized).
     */
    private static final class Driver implements Runnable {
        private final String path;
        /** The driver's context, once opened; read by the exit's {@link #drain}. */
        private volatile ThreadCtx ctx;
        /** Set once every cleanup of the stream has run. */
        private volatile boolean done;
        /** How many cleanups the driver has run: the exit's {@link #drain} watches it move. Written by the driver's thread alone. */
        private volatile long ran;

        Driver(String path) {
            this.path = path;
        }

        @Override
        public void run() {
            Session s = Session.current();
            // Under RTO a cleanup is recorded only once main no longer runs alone; the swap below
            // must not meet main's alone phase either (AloneMain: only main writes it then).
            while (s.config().order() == Order.RTO && !Threads.othersStarted()) {
                sleep();
            }
            Rt.current(); // binds this thread, unrecorded, so that the swap replaces its binding
            ThreadCtx ctx = s.openCleanups(path);
            Rt.swap(ctx);
            ctx.depth = 1;
            String name = Ev.begin(ctx, THREAD, 0, 0).s(null);
            int hash = ctx.ev.i(0);
            ctx.ev.end();
            Rt.swap(ThreadCtx.UNRECORDED);
            Thread runner = new Thread(new Cleaning(this), name);
            IdentityHashes.cleanupDriver(runner, hash);
            runner.setDaemon(true);
            this.ctx = ctx; // before the start: the runner and the exit's drain read it
            runner.start();
        }

        /** On the thread made for the stream: its cleanups, until the stream ends. */
        void runCleanups() {
            ThreadCtx ctx = this.ctx;
            Rt.current();
            Rt.swap(ctx);
            ReplayEv in = (ReplayEv) ctx.ev;
            while (true) {
                ctx.depth = 1; // reading the stream is Reprise's work
                if (in.exhausted()) {
                    done = true;
                    return;
                }
                Ev ev = Ev.begin(ctx, RUN, 0, 0);
                String key = ev.s(null);
                int n = ev.i(0);
                int[] threads = new int[n];
                long[] counts = new long[n];
                for (int i = 0; i < n; i++) {
                    threads[i] = ev.i(0);
                    counts[i] = ev.j(0);
                    if (threads[i] < 0 || threads[i] >= SyncOrder.MAX_THREADS) {
                        Divergence.mismatch("cleanup order", "a cleanup is ordered after thread index " + threads[i]);
                    }
                }
                ev.end();
                ctx.depth = 1; // the waits are Reprise's, not the program's parks and monitors
                awaitProgress(ctx, threads, counts);
                Keyed k = awaitRegistered(key);
                Object target = k.get();
                if (target == null) {
                    Divergence.mismatch("cleanup " + key, "its object is gone before its cleanup ran");
                }
                while (!k.runner.registered(target)) {
                    sleep();
                }
                ctx.depth = 0;
                try {
                    k.runner.run(target);
                } catch (Throwable t) {
                    // Ignored, as the JDK's finalizer and cleaner threads ignore what a cleanup throws.
                }
                ran++; // the one writer: a plain increment of the volatile is not lost
            }
        }

        /** Waits until each thread has completed its count of events, through the edges' wait, a batch at a time. */
        private static void awaitProgress(ThreadCtx ctx, int[] threads, long[] counts) {
            for (int from = 0; from < threads.length; from += ThreadCtx.MAX_EDGES) {
                int n = Math.min(ThreadCtx.MAX_EDGES, threads.length - from);
                ctx.awaitSeq = -1;
                for (int i = 0; i < n; i++) {
                    ctx.awaitThreads[i] = threads[from + i];
                    ctx.awaitCounts[i] = counts[from + i];
                }
                ctx.awaitEdges = n;
                Waiter.await(ctx);
            }
            ctx.awaitEdges = 0;
        }

        /** The object registered under {@code key}, once the thread that registers it has. */
        private static Keyed awaitRegistered(String key) {
            synchronized (BY_KEY) {
                Keyed k;
                while ((k = BY_KEY.remove(key)) == null) {
                    try {
                        BY_KEY.wait(50);
                    } catch (InterruptedException e) {
                        // as in sleep()
                    }
                }
                return k;
            }
        }

        /** Whether the driver has no cleanup left to run before the exit. */
        boolean idle() {
            ThreadCtx c = ctx;
            return done || c != null && c.awaitingExit;
        }
    }

    /** The thread made for a cleanup stream ({@link Driver#run}). */
    private static final class Cleaning implements Runnable {
        private final Driver driver;

        Cleaning(Driver driver) {
            this.driver = driver;
        }

        @Override
        public void run() {
            driver.runCleanups();
        }
    }
}
