package dev.reprise.agent.runtime.events;

import java.util.ArrayDeque;

/**
 * Replay under a debugger: the replay's side of {@code reprise replay --debug}. Reprise's debugger
 * proxy, which stands between the user's debugger and this JVM's JDWP agent, sets a breakpoint on
 * {@link #stopped} to stop the replay where {@code --stop-at} asks; calls {@link #enterInvoke}
 * and {@link #exitInvoke} on a thread around each method the debugger invokes on it, so that such
 * code runs unrecorded; and sets {@link #held} while the debugger holds threads suspended, so that
 * a replay waiting for them is not reported stuck. None of it changes a replay without a debugger.
 */
public final class Debuggee {
    /** The thread whose event {@link #stopEvent} the replay stops before, or null. */
    private static String stopThread;
    private static long stopEvent = -1;
    private static boolean stopAtExit;

    /**
     * Whether the debugger holds some thread suspended; written by the proxy through JDWP, while
     * the program runs, read by {@code StallWatch}. Volatile: the watch reads it across looks.
     */
    public static volatile boolean held;

    /**
     * Per thread, the contexts its debugger invocations replaced, innermost last: a breakpoint in
     * invoked code lets the debugger invoke again. Only touched with the thread's interception off.
     */
    private static final ThreadLocal<ArrayDeque<ThreadCtx>> INVOKING = new ThreadLocal<>();

    private Debuggee() {
    }

    /** From the replay's configuration: {@code PATH:EVENT}, {@code exit}, or null. */
    public static void configure(String stopAt) {
        if (stopAt == null) {
            return;
        }
        if (stopAt.equals("exit")) {
            stopAtExit = true;
            return;
        }
        int colon = stopAt.lastIndexOf(':');
        stopThread = stopAt.substring(0, colon);
        stopEvent = Long.parseLong(stopAt.substring(colon + 1));
    }

    /** The event before which the thread with this path stops, or -1 ({@link ThreadCtx#stopBefore}). */
    public static long stopBefore(String path) {
        return path != null && path.equals(stopThread) ? stopEvent : -1;
    }

    /** Replay: the thread is about to replay the event {@code --stop-at} names. */
    static void reached(ThreadCtx ctx) {
        ctx.stopBefore = -1;
        stopped(ctx.path + ":" + ctx.eventNo);
    }

    /** Replay: the JVM is exiting, after the program's last event. */
    public static void exiting() {
        if (stopAtExit) {
            stopped("exit");
        }
    }

    /**
     * The proxy's breakpoint: every thread is suspended here, the one that reached {@code where}
     * showing it on its stack. Its frames below Reprise's are the program's.
     */
    @SuppressWarnings("unused")
    private static void stopped(String where) {
    }

    /**
     * Invoked by the proxy on a suspended thread before the debugger invokes a method on it: what
     * the method does is no event, takes no turn and draws no identity hash from the recording.
     * The thread's own context keeps a raised depth meanwhile, so main's alone path
     * ({@code AloneMain.take}) does not claim it either.
     */
    @SuppressWarnings("unused")
    private static void enterInvoke() {
        ThreadCtx own = Rt.current();
        own.depth++;
        ArrayDeque<ThreadCtx> stack = INVOKING.get();
        if (stack == null) {
            stack = new ArrayDeque<>();
            INVOKING.set(stack);
        }
        stack.addLast(own);
        Rt.swap(ThreadCtx.UNRECORDED);
    }

    /** Invoked by the proxy after the debugger's invocation returned: the thread replays again. */
    @SuppressWarnings("unused")
    private static void exitInvoke() {
        ArrayDeque<ThreadCtx> stack = INVOKING.get();
        if (stack == null || stack.isEmpty()) {
            return;
        }
        ThreadCtx own = stack.removeLast();
        Rt.swap(own);
        own.depth--;
    }
}
