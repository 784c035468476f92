package dev.reprise.agent.runtime.events;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * Stops a replay that no longer follows its recording. The report names the thread, the event
 * number, what the recording expected against what the program did (operation and call site),
 * and the Java stack; the JVM then halts with status 3. A replay never continues past a mismatch.
 */
public final class Divergence {
    public static final int EXIT_DIVERGED = 3;
    public static final int EXIT_CORRUPT = 4;

    private Divergence() {
    }

    static void report(ThreadCtx ctx, int rOp, int rSite, int rDigest, int op, int site, int digest) {
        String what = rOp != op ? "a different operation" : rSite != site ? "a different call site" : "different arguments";
        String headline = Op.nameOf(op).equals("thread.end")
                ? "the thread ended before using all its recorded events"
                : "the program made " + what + " than the recording";
        stop(ctx, headline,
                "expected: " + describe(rOp, rSite, rDigest) + "\n  actual:   " + describe(op, site, digest));
    }

    /** The recording has a relaxed event, counted in a {@code sync.relaxed.run}, where the program does another operation. */
    static void relaxedExpected(ThreadCtx ctx, int op, int site, int digest) {
        stop(ctx, "the program made a different operation than the recording",
                "expected: a synchronization event on a resource this thread held last (counted in a sync.relaxed.run)"
                        + "\n  actual:   " + describe(op, site, digest));
    }

    public static void launch(ThreadCtx ctx, String recorded, String actual) {
        stop(ctx, "the program was started with a different main class or arguments than the recording",
                "expected: " + recorded + "\n  actual:   " + actual);
    }

    public static void leftOver(ThreadCtx ctx) {
        stop(ctx, "the thread ended before using all its recorded events", "the recording has more events for this thread");
    }

    /** The program exits while a stream of cleanups still holds cleanups to run ({@code Cleanups.drain}). */
    public static void cleanupsLeft(ThreadCtx ctx) {
        stop(ctx, "the program exited before all its recorded cleanups ran",
                "the recording has more finalizers or cleaning actions on this stream");
    }

    /** A class initializer asked for more events than its recorded stream holds. */
    public static void initializerLonger(ThreadCtx ctx, int op, int site) {
        stop(ctx, "the static initializer of " + ctx.initializing + " did more than the recording",
                "actual: " + describe(op, site, 0) + " past the end of its recorded events");
    }

    /** A value coded by an operation differs from the recording, e.g. the bytes a write wrote. */
    public static void mismatch(String operation, String detail) {
        ThreadCtx ctx = Rt.current();
        stop(ctx, "the program's " + operation + " differs from the recording", detail);
    }

    /** The program reached beyond the process, which a replay never does ({@code OutsideWorld}). */
    public static void outsideWorld(ThreadCtx ctx, String headline, String detail) {
        stop(ctx, headline, detail, false);
    }

    private static String describe(int op, int site, int digest) {
        return Op.nameOf(op) + " at " + Sites.nameOf(site) + " (argument digest " + Integer.toHexString(digest) + ")";
    }

    private static void stop(ThreadCtx ctx, String headline, String detail) {
        stop(ctx, headline, detail, true);
    }

    /** {@code pathMayDiffer}: the program may have left the recorded path before this point, unseen. */
    private static void stop(ThreadCtx ctx, String headline, String detail, boolean pathMayDiffer) {
        // The program's buffered output is not flushed: its bytes were never checked against the
        // recording, and a replay prints nothing the recorded run did not.
        Rt.suppress(); // writing the report is not an event, also when no event is open
        StringBuilder sb = new StringBuilder();
        sb.append("replay diverged on ").append(ctx.initializing != null ? "" : "thread ").append(ctx.path).append(" at event ").append(ctx.eventNo)
                .append(": ").append(headline).append("\n  ").append(detail).append("\n  Java stack:");
        boolean inProgram = false;
        for (StackTraceElement e : Thread.currentThread().getStackTrace()) {
            String c = e.getClassName();
            // Skip Reprise's own frames on top (and getStackTrace); show the program's from there.
            if (inProgram || (!c.startsWith("dev.reprise.") && !e.getMethodName().equals("getStackTrace"))) {
                inProgram = true;
                sb.append("\n    at ").append(e);
            }
        }
        if (pathMayDiffer && ((ReplayEv) ctx.ev).readRuns()) {
            sb.append("\n  This thread's relaxed synchronization events were recorded as counts, without their sites:"
                    + " it may have first taken another path earlier. A recording made with 'reprise record --log-relaxed'"
                    + " stops its replay at the first action that differs.");
        }
        sb.append("\n  To look at this moment in a debugger: reprise replay ").append(Session.current().config().dir())
                .append(" --debug --stop-at ").append(ctx.path).append(':').append(ctx.eventNo);
        message(sb.toString());
        Runtime.getRuntime().halt(EXIT_DIVERGED);
    }

    /** The replay's stack overflowed inside Reprise's work on an event of {@code ctx}, where the recording's did not. */
    static void overflowed(ThreadCtx ctx) {
        stop(ctx, "the replay's stack overflowed where the recording's did not",
                "The program caught a StackOverflowError thrown inside Reprise's work on this event; the recording went"
                        + " on past it.", false);
    }

    /** Writes a {@code reprise:} line to the process's stderr, bypassing the program's streams. */
    public static void message(String text) {
        try {
            FileOutputStream err = new FileOutputStream(FileDescriptor.err);
            err.write(("reprise: " + text + "\n").getBytes(StandardCharsets.UTF_8));
        } catch (IOException e) {
            // stderr is gone: nothing left to tell
        }
    }
}
