package dev.reprise.agent.runtime.events;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * Recording under RTO: a cleanup's request that main end its alone phase, and the end itself, at
 * an event main's stream marks ({@link Ev#ALONE_END}) so that a replay ends the phase at the same
 * point. The thread registry, in a package above this one, asks ({@link #want}) and decides what
 * the end changes ({@link #install}); the events only carry the mark.
 */
public final class AloneEnd {
    /**
     * Set by a cleanup's thread, cleared by main as its alone phase ends. Main reads it at each of
     * its events, opaquely ({@link #WANTED}): it must see the request soon, but nothing it reads
     * later depends on it, so no barrier is paid on that path.
     */
    private static boolean wanted;
    private static final VarHandle WANTED;
    /** Installed at start-up, before any event; volatile for a thread that never met premain. */
    private static volatile Runnable ender;

    static {
        try {
            WANTED = MethodHandles.lookup().findStaticVarHandle(AloneEnd.class, "wanted", boolean.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private AloneEnd() {
    }

    /** At start-up: what ends main's alone phase, run on main as a marked event ends. */
    public static void install(Runnable end) {
        ender = end;
    }

    /** A cleanup's thread asks main to end its alone phase at its next event. */
    public static void want() {
        WANTED.setVolatile(true);
    }

    /** The phase ended (the marked event, or a thread's start): main no longer answers a request. */
    public static void clear() {
        WANTED.setOpaque(false);
    }

    /** Record, on main: whether a cleanup asked main to end its alone phase, which has not ended yet. */
    static boolean wanted() {
        return (boolean) WANTED.getOpaque();
    }

    /** On main, as the event its stream marks ends, in a recording and its replays alike. */
    static void end() {
        ender.run();
    }
}
