package dev.reprise.agent.runtime.session;

import dev.reprise.agent.runtime.events.Divergence;
import dev.reprise.agent.runtime.events.Rt;
import dev.reprise.agent.runtime.events.Session;
import dev.reprise.agent.runtime.events.ThreadCtx;
/**
 * What the program does that Reprise does not record: a socket of JDK 17's legacy implementation.
 * A recording lets it happen and warns, once per kind, that its replay will stop there; a replay
 * stops at the first attempt with a report (status 3), before anything reaches the outside.
 * Only recorded threads are watched: the JVM's own threads are its business, and the program
 * runs on recorded threads alone.
 */
public final class OutsideWorld {
    /** A kind of reach beyond the process, and why its replay cannot go on. */
    public enum Kind {
        LEGACY_SOCKET("opened a socket of the legacy implementation (-Djdk.net.usePlainSocketImpl)",
                "its traffic is not recorded");

        final String did;
        final String why;
        /** Record: the warning for this kind was written. Set once, by whichever thread gets there; a second warning is harmless. */
        volatile boolean warned;

        Kind(String did, String why) {
            this.did = did;
            this.why = why;
        }
    }

    private OutsideWorld() {
    }

    /**
     * The current thread is about to do {@code kind}; {@code what} says more (a command line), or
     * is empty. Replay: stops the JVM here. Record: warns the first time, and returns.
     */
    public static void attempt(Kind kind, String what) {
        if (!Rt.recorded()) {
            return;
        }
        ThreadCtx ctx = Rt.current();
        Rt.suppress(); // Reprise's own work: nothing it calls is the program's event
        try {
            String api = apiCalled();
            String detail = what.isEmpty() ? api : api + ": " + what;
            if (Session.current().replaying()) {
                Divergence.outsideWorld(ctx, "the program " + kind.did + ", which a replay never does: " + kind.why,
                        "actual:   " + detail);
            } else if (!kind.warned) {
                kind.warned = true;
                Divergence.message("warning: the program " + kind.did + " (" + detail + "); " + kind.why
                        + ": a replay of this recording will stop there (status 3)");
            }
        } finally {
            Rt.unsuppress();
        }
    }

    /**
     * The JDK method the program called to get here, and where from: the outermost JDK frame on
     * top of the program's (or of the thread's first frame), as {@code java.net.Socket.connect
     * from app.Main.main(Main.java:12)}.
     */
    private static String apiCalled() {
        StackTraceElement api = null;
        for (StackTraceElement e : Thread.currentThread().getStackTrace()) {
            if (e.getClassName().startsWith("dev.reprise.") || e.getMethodName().equals("getStackTrace")) {
                continue;
            }
            if (!isJdk(e)) {
                return api == null ? e.toString() : api.getClassName() + "." + api.getMethodName() + " from " + e;
            }
            api = e;
        }
        return api == null ? "?" : api.getClassName() + "." + api.getMethodName();
    }

    /** Whether a stack frame is the JDK's: a class of one of its named modules. */
    static boolean isJdk(StackTraceElement e) {
        String module = e.getModuleName();
        return module != null && (module.startsWith("java.") || module.startsWith("jdk."));
    }
}
