package dev.reprise.agent.runtime.events;

import dev.reprise.agent.runtime.ordering.RaceWatch;

/**
 * A stack overflow inside Reprise's own work on an event. The JVM throws it at whatever call
 * ran out of stack, which may be one of Reprise's between the claim of an event and its end:
 * the claim then stays held, and without this every later call of the thread ran live and
 * unrecorded, and its replay printed what the replaying machine gave it. The program's handler
 * that catches the overflow ({@code instrument/ErrorHandlerRewriter}) finds the claim held with
 * no hook on its stack. Recording then drops the event the overflow cut short, releases the
 * claim and logs {@code thread.stack.overflow} in its place; a replay that comes to that event
 * throws a {@code StackOverflowError} from the call the recording's overflow cut
 * ({@link ReplayEv}), where the program catches it as it did. A replay whose own stack overflows
 * first stops with a report.
 *
 * <p>An overflow where no claim is held (in the program's own code, or in the race watch's work,
 * which only a learning recording does) is logged the same way: a replay's stacks are larger, and
 * it runs none of the watch's work, so it recursed on where the recording had overflowed (a
 * program that recurses until it overflows, catching it, five times over). A replay whose own
 * stack overflows there logs the overflow too, which matches the recording's, or is reported
 * where the recording had none: a recursion with no event in it overflows deeper in the
 * replay, yet where the program catches it, as the recording's did.
 */
final class Overflows {
    private Overflows() {
    }

    /** The program caught {@code overflow}, a {@code StackOverflowError}, on this thread. */
    static void caught(Throwable overflow) {
        ThreadCtx ctx = Rt.current();
        if (ctx == ThreadCtx.UNRECORDED) {
            return;
        }
        boolean replayed = ctx.overflowReplayed;
        ctx.overflowReplayed = false;
        if (ctx.depth == ctx.baseDepth) {
            if (ctx.ev.recording() || !replayed) {
                logged(ctx);
            }
            return;
        }
        if (hookOnStack()) {
            // Held by a hook whose live work the program runs in: only the watch's overflow is no part of it.
            if (ctx.ev.recording() && thrownWatching(overflow)) {
                logged(ctx);
            }
            return;
        }
        ctx.ev.abandon();
        if (ctx.ev.recording()) {
            logged(ctx);
        } else {
            Divergence.overflowed(ctx);
            ctx.depth = ctx.baseDepth;
        }
    }

    /** Records the overflow as an event of its own, and leaves the thread holding no claim. */
    private static void logged(ThreadCtx ctx) {
        ctx.depth = ctx.baseDepth + 1;
        Ev.begin(ctx, Ev.OVERFLOW, 0, 0).end();
        ctx.depth = ctx.baseDepth;
    }

    /** Whether {@code overflow} was thrown in the race watch's work: its first frame past the JDK's is the watch's. */
    private static boolean thrownWatching(Throwable overflow) {
        for (StackTraceElement e : overflow.getStackTrace()) {
            String c = e.getClassName();
            if (!c.startsWith("java.") && !c.startsWith("jdk.") && !c.startsWith("sun.")) {
                return c.equals(RaceWatch.class.getName());
            }
        }
        return false;
    }

    /** Whether a frame of Reprise's hooks or runtime is below the handler's: rare, so the walk's cost is no matter. */
    private static boolean hookOnStack() {
        for (StackTraceElement e : new Throwable().getStackTrace()) {
            String c = e.getClassName();
            if (c.startsWith("dev.reprise.agent.") && !c.equals(Overflows.class.getName()) && !c.equals(Rt.class.getName())) {
                return true;
            }
        }
        return false;
    }
}
