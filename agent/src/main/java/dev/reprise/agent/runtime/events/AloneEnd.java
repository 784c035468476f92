package dev.reprise.agent.runtime.events;

/**
 * Recording under RTO: a cleanup's request that main end its alone phase, and the end itself, at
 * an event main's stream marks ({@link Ev#ALONE_END}) so that a replay ends the phase at the same
 * point. The thread registry, in a package above this one, asks ({@link #want}) and decides what
 * the end changes ({@link #install}); the events only carry the mark.
 */
public final class AloneEnd {
    /**
     * Set by a cleanup's thread, cleared by main as its alone phase ends; main reads it as it
     * writes an event. Main's fast path, which counts its synchronization, reads nothing new:
     * the request stops main's counting instead ({@link Ev#countsRelaxed}), so its next event is
     * written.
     */
    private static volatile boolean wanted;
    /** Main's event whose counting a request stopped, to restore as the phase ends; main's own once set. */
    private static Ev stopped;
    /** Installed at start-up, before any event; volatile for a thread that never met premain. */
    private static volatile Runnable ender;

    private AloneEnd() {
    }

    /** At start-up: what ends main's alone phase, run on main as a marked event ends. */
    public static void install(Runnable end) {
        ender = end;
    }

    /**
     * A cleanup's thread asks main, whose context is {@code main}, to end its alone phase at its
     * next event. {@link #stopped} is written before the volatile {@link #wanted}, which main
     * reads before it reads {@code stopped} ({@link #clear}).
     */
    public static void want(ThreadCtx main) {
        Ev ev = main.ev;
        if (ev.countsRelaxed) {
            stopped = ev;
            ev.countsRelaxed = false;
        }
        wanted = true;
    }

    /** On main, as the phase ends (the marked event, or a thread's start): main counts again and answers no request. */
    public static void clear() {
        if (wanted) {
            wanted = false;
            Ev ev = stopped;
            if (ev != null) {
                stopped = null;
                ev.countsRelaxed = true;
            }
        }
    }

    /** Record, on main: whether a cleanup asked main to end its alone phase, which has not ended yet. */
    static boolean wanted() {
        return wanted;
    }

    /** On main, as the event its stream marks ends, in a recording and its replays alike. */
    static void end() {
        ender.run();
    }
}
