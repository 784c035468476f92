package dev.reprise.agent.runtime;

/**
 * Entry point of every instrumented prologue: decides, per call, whether the current call is
 * intercepted. A call is intercepted when Reprise is active, the thread is recorded, and no
 * intercepted call is already running on this thread (the outermost call is the event; what
 * it does inside, such as the JDK's own I/O, is part of it and not logged again).
 */
public final class Rt {
    /** Set once in premain before any class is instrumented, never changed afterwards. */
    static volatile boolean active;

    private static final ThreadLocal<ThreadCtx> CTX = new ThreadLocal<>();

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
        ThreadCtx c = CTX.get();
        return c != null ? c : attach();
    }

    /**
     * Creates the thread's context on its first intercepted call. What that creation runs (class
     * linking, hashing) may reach instrumented code again: meanwhile the thread counts as
     * unrecorded, so those calls run live and unlogged instead of recursing.
     */
    private static ThreadCtx attach() {
        CTX.set(ThreadCtx.UNRECORDED);
        ThreadCtx c = Threads.contextForCurrentThread();
        CTX.set(c);
        return c;
    }


    /** Makes {@code ctx} the current thread's context: a class initializer's, or back ({@link ClassInits}). */
    static void swap(ThreadCtx ctx) {
        CTX.set(ctx);
    }

    /** The current recorded thread's path; in a class initializer's context, the thread's that runs it. */
    public static String threadPath() {
        ThreadCtx c = current();
        return c.initializing != null ? c.outer.path : c.path;
    }

    /** Whether the current thread runs a JDK class's static initializer in the initializer's own context. */
    public static boolean initializingClass() {
        return current().initializing != null;
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
