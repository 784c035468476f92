package dev.reprise.agent.runtime.events;

import dev.reprise.agent.runtime.jdk.JdkMethods;

import java.lang.invoke.VarHandle;

/**
 * Entry point of every instrumented prologue: decides, per call, whether the current call is
 * intercepted. A call is intercepted when Reprise is active, the thread is recorded, and no
 * intercepted call is already running on this thread (the outermost call is the event; what
 * it does inside, such as the JDK's own I/O, is part of it and not logged again).
 */
public final class Rt {
    /** Set once, at the end of premain ({@link #activate}), never changed afterwards. */
    public static volatile boolean active;

    /** Per thread, its binding: the source of truth for {@link #current}. */
    private static final ThreadLocal<Binding> CTX = new ThreadLocal<>();
    /**
     * Bindings by thread id, a cache in front of {@link #CTX}: every hook and bracket asks for the
     * current context, and a thread-local lookup (hashing, a weak reference's check) costs more
     * than the event's own work. Colliding threads replace each other's entry and find theirs
     * through {@link #CTX} meanwhile. Entries are published by plain stores: a binding's fields
     * are final, so a thread that reads an entry sees the whole binding, whichever thread stored
     * it ({@link #activate} binds other threads than its own).
     */
    private static final Binding[] BY_ID = new Binding[1024];
    /** {@code Thread.tid}: {@code getId} may be a program's override, and {@code threadId} is JDK 19+. */
    private static final VarHandle TID = JdkMethods.field(Thread.class, "tid", long.class);
    /**
     * Makes the contexts: the thread registry, in a package above this one, installs itself at
     * start-up ({@link #install}) rather than this class calling up to it. Read when a thread
     * binds a context, never on a claim. Volatile: a thread that never synchronized with premain
     * still sees the binder once installed; until then every thread is unrecorded, as the
     * registry itself says before the session starts.
     */
    private static volatile Binder binder;

    /** What makes a thread's context, and learns which context a thread runs. */
    public interface Binder {
        /** The current thread's context, made on its first intercepted call; {@link ThreadCtx#UNRECORDED} if not recorded. */
        ThreadCtx contextForCurrentThread();

        /** The current thread runs {@code ctx} now: its own context, a class initializer's, or {@link ThreadCtx#UNRECORDED}. */
        void running(ThreadCtx ctx);
    }

    /**
     * A thread and its current context (the thread's own, or a class initializer's it runs). It
     * never changes: a thread whose context changes is bound anew ({@link #swap}).
     */
    private static final class Binding {
        final Thread thread;
        final ThreadCtx ctx;

        Binding(Thread thread, ThreadCtx ctx) {
            this.thread = thread;
            this.ctx = ctx;
        }
    }

    private Rt() {
    }

    /** At start-up, before the session is current: the binder of threads to their contexts. */
    public static void install(Binder b) {
        binder = b;
    }

    /**
     * Claims the current call as an event. On {@code true} the caller must run exactly one event
     * ({@link Ev#begin} ... {@link Ev#end}), which releases the claim.
     */
    public static boolean claim() {
        if (!active) {
            return false;
        }
        ThreadCtx c = current();
        if (c.depth != 0) {
            return false;
        }
        c.depth = 1;
        return true;
    }

    /**
     * Whether {@link #claim} would succeed, without claiming: the test of an override Reprise adds
     * to a program's subclass ({@code instrument/InheritedHookOverrides}), which calls the hook only
     * when the hook would make the call an event, and the JDK's method otherwise (the hook's own
     * call of it, when not claimed, dispatches back to the override).
     */
    public static boolean claimable() {
        return active && current().depth == 0;
    }

    /**
     * {@link #claim} in the program's own code alone: not inside the JDK's unordered work
     * ({@code SyncActions.quiet}), which includes a JDK class's initializer. What such work reads
     * of the JDK's own state (its weak maps) is its business, done at moments that differ between
     * runs.
     */
    public static boolean claimInProgram() {
        if (!active) {
            return false;
        }
        ThreadCtx c = current();
        if (c.depth != 0 || c.quiet != 0) {
            return false;
        }
        c.depth = 1;
        return true;
    }

    /** Whether {@link #claimInProgram} would succeed, without claiming. */
    public static boolean claimableInProgram() {
        if (!active) {
            return false;
        }
        ThreadCtx c = current();
        return c.depth == 0 && c.quiet == 0;
    }

    /** Whether the current thread is recorded, whatever it is running: an {@code ANY_DEPTH} prologue's test. */
    public static boolean recorded() {
        return active && current() != ThreadCtx.UNRECORDED;
    }

    /** Whether the current thread is one Reprise does not record, once interception is on: an {@code UNRECORDED} prologue's test. */
    public static boolean unrecorded() {
        return active && current() == ThreadCtx.UNRECORDED;
    }

    /**
     * Whether the current thread is recorded and inside an event or quiet JDK code: what it does
     * now is no event. An {@code INSIDE_EVENT} prologue's test.
     */
    public static boolean insideEvent() {
        if (!active) {
            return false;
        }
        ThreadCtx c = current();
        return c != ThreadCtx.UNRECORDED && (c.depth != 0 || c.quiet != 0);
    }

    /** Like {@link #claim()}, returning the claimed thread's context, or null: saves a second lookup. */
    public static ThreadCtx claimContext() {
        if (!active) {
            return null;
        }
        ThreadCtx c = current();
        if (c.depth != 0) {
            return null;
        }
        c.depth = 1;
        return c;
    }

    /**
     * At the start of a handler of the program's that catches errors ({@code
     * instrument/ErrorHandlerRewriter}): a stack overflow may have left an event's claim held
     * ({@link Overflows}).
     */
    public static void caught(Throwable t) {
        if (t instanceof StackOverflowError && active) {
            Overflows.caught(t);
        }
    }

    /** Releases a claim without an event: the hook ran the operation live, unlogged. */
    public static void release() {
        current().depth = 0;
    }

    /**
     * After a claimed prologue hook returned ({@code instrument/PrologueInserter}): ends the event
     * it opened, if it left one open, and releases the claim. The hook's tail, written once here
     * rather than in every hook: a hook that opened no event (it ran the operation live) or
     * ended its own only has its claim released.
     */
    public static void ended() {
        end(current());
    }

    private static void end(ThreadCtx c) {
        Ev ev = c.ev;
        if (ev != null) {
            ev.end();
        }
        c.depth = 0;
    }

    /**
     * After a claimed prologue hook threw {@code t}: its event, if open, records the exception
     * (replay: the recorded one was just rethrown); then as {@link #ended}. Always throws
     * {@code t}; returns for the prologue's {@code athrow}.
     */
    public static RuntimeException failed(Throwable t) {
        ThreadCtx c = current();
        try {
            if (c.ev != null) {
                throw c.ev.threw(t);
            }
            throw Ev.sneaky(t);
        } finally {
            end(c);
        }
    }

    /** The current thread's context; its {@code depth} is non-zero for threads that are not recorded. */
    public static ThreadCtx current() {
        Thread t = Thread.currentThread();
        Binding b = BY_ID[byId(t)];
        return b != null && b.thread == t ? b.ctx : binding(t).ctx;
    }

    private static int byId(Thread t) {
        return (int) tid(t) & (BY_ID.length - 1);
    }

    /** {@code t}'s id, unique among the threads of the run: ids are never reused. */
    public static long tid(Thread t) {
        return (long) TID.get(t);
    }

    /**
     * Switches interception on. The other threads alive now (the JVM's finalizer, reference
     * handler and cleaner, Reprise's writer) are not recorded, and each is bound now, as its
     * first call would bind it: a first call misses {@link #BY_ID}, and where only main has
     * called before, the JIT compiled that miss as a trap, so that a finalizer run late in the
     * program discarded the compiled brackets main runs most (BENCHMARKS.md). A slot main's
     * binding holds is left to it.
     */
    static void activate() {
        Thread self = Thread.currentThread();
        ThreadGroup root = self.getThreadGroup();
        while (root.getParent() != null) {
            root = root.getParent();
        }
        Thread[] others = new Thread[root.activeCount() + 16];
        root.enumerate(others, true);
        for (Thread t : others) {
            if (t != null && t != self && BY_ID[byId(t)] == null) {
                BY_ID[byId(t)] = new Binding(t, ThreadCtx.UNRECORDED);
            }
        }
        active = true;
    }

    /** The current thread's binding, made on its first call, and cached in {@link #BY_ID}. */
    private static Binding binding(Thread t) {
        Binding b = CTX.get();
        if (b == null) {
            b = attach(t);
        }
        BY_ID[byId(t)] = b;
        return b;
    }

    /**
     * Creates the thread's context on its first intercepted call. What that creation runs (class
     * linking, hashing) may reach instrumented code again: meanwhile the thread counts as
     * unrecorded, so those calls run live and unlogged instead of recursing.
     */
    private static Binding attach(Thread t) {
        Binding unrecorded = new Binding(t, ThreadCtx.UNRECORDED);
        CTX.set(unrecorded);
        Binder binder = Rt.binder;
        if (binder == null) {
            return unrecorded; // before start-up, as the registry would say
        }
        Binding b = new Binding(t, binder.contextForCurrentThread());
        CTX.set(b);
        binder.running(b.ctx);
        return b;
    }

    /**
     * Makes {@code ctx} the current thread's context: a class initializer's, or back
     * ({@code ClassInits}). The thread has its binding already, so {@link #CTX} replaces its
     * value in place.
     */
    public static void swap(ThreadCtx ctx) {
        Thread t = Thread.currentThread();
        Binding b = new Binding(t, ctx);
        CTX.set(b);
        BY_ID[byId(t)] = b;
        binder.running(ctx);
    }

    /**
     * The current context's path, from which its {@code ThreadLocalRandom} state derives: a
     * class initializer's own, whichever thread runs it ({@code ThreadRandoms.enterInit}).
     */
    public static String threadPath() {
        return current().path;
    }

    /** Whether the current thread runs a static initializer in the initializer's own context. */
    public static boolean initializing() {
        return current().initializing != null;
    }

    /** Whether the current thread runs a JDK class's static initializer in the initializer's own context. */
    public static boolean initializingJdkClass() {
        return current().jdkInit;
    }

    /** Runs Reprise's own work on this thread without intercepting what it calls. */
    public static void suppress() {
        ThreadCtx c = current();
        if (c != ThreadCtx.UNRECORDED) {
            c.depth++;
        }
    }

    public static void unsuppress() {
        ThreadCtx c = current();
        if (c != ThreadCtx.UNRECORDED) {
            c.depth--;
        }
    }
}
