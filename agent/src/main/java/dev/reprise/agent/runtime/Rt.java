package dev.reprise.agent.runtime;

import java.lang.invoke.VarHandle;

/**
 * Entry point of every instrumented prologue: decides, per call, whether the current call is
 * intercepted. A call is intercepted when Reprise is active, the thread is recorded, and no
 * intercepted call is already running on this thread (the outermost call is the event; what
 * it does inside, such as the JDK's own I/O, is part of it and not logged again).
 */
public final class Rt {
    /** Set once in premain before any class is instrumented, never changed afterwards. */
    static volatile boolean active;

    /** Per thread, its binding: the source of truth for {@link #current}. */
    private static final ThreadLocal<Binding> CTX = new ThreadLocal<>();
    /**
     * Bindings by thread id, a cache in front of {@link #CTX}: every hook and bracket asks for the
     * current context, and a thread-local lookup (hashing, a weak reference's check) costs more
     * than the event's own work. Colliding threads replace each other's entry and find theirs
     * through {@link #CTX} meanwhile. Entries are published by plain stores: a reader checks the
     * final {@link Binding#thread}, which final-field semantics make visible with the entry, and
     * reads {@link Binding#ctx} only from its own binding, which only its thread writes.
     */
    private static final Binding[] BY_ID = new Binding[1024];
    /** {@code Thread.tid}: {@code getId} may be a program's override, and {@code threadId} is JDK 19+. */
    private static final VarHandle TID = JdkMethods.field(Thread.class, "tid", long.class);

    /** A thread and its current context (the thread's own, or a class initializer's it runs). */
    private static final class Binding {
        final Thread thread;
        ThreadCtx ctx;

        Binding(Thread thread, ThreadCtx ctx) {
            this.thread = thread;
            this.ctx = ctx;
        }
    }

    private Rt() {
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

    /** Whether the current thread is recorded, whatever it is running: an {@code anyDepth} prologue's test. */
    public static boolean recorded() {
        return active && current() != ThreadCtx.UNRECORDED;
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

    /** Releases a claim without an event: the hook ran the operation live, unlogged. */
    public static void release() {
        current().depth = 0;
    }

    /** The current thread's context; its {@code depth} is non-zero for threads that are not recorded. */
    public static ThreadCtx current() {
        Thread t = Thread.currentThread();
        Binding b = BY_ID[byId(t)];
        return b != null && b.thread == t ? b.ctx : binding(t).ctx;
    }

    private static int byId(Thread t) {
        return (int) (long) TID.get(t) & (BY_ID.length - 1);
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
        Binding b = new Binding(t, ThreadCtx.UNRECORDED);
        CTX.set(b);
        b.ctx = Threads.contextForCurrentThread();
        AloneMain.running(b.ctx);
        return b;
    }

    /** Makes {@code ctx} the current thread's context: a class initializer's, or back ({@link ClassInits}). */
    static void swap(ThreadCtx ctx) {
        binding(Thread.currentThread()).ctx = ctx;
        AloneMain.running(ctx);
    }

    /** The current recorded thread's path; in a class initializer's context, the thread's that runs it. */
    public static String threadPath() {
        ThreadCtx c = current();
        return c.initializing != null ? c.outer.path : c.path;
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
