package dev.reprise.agent.runtime.identity;

import dev.reprise.agent.runtime.events.Ev;
import dev.reprise.agent.runtime.events.ReplayEv;
import dev.reprise.agent.runtime.events.ThreadCtx;

/**
 * Which thread gives an object its value, where threads race to hash it first. An object's value
 * comes from the thread that hashes it first (its path and counters), and nothing orders two
 * threads' first hashes of an object they share: a static object each of Netty's event loops
 * files in a set of its own, by identity, as it first uses it. A replay that let another thread
 * come first gave the object another value, and an event loop then walked its set in another
 * order as it shut down.
 *
 * <p>So once other threads run, a thread that installs the value it gives logs that
 * ({@link Ev#IDENTITY_FIRST}, at the program's hash, outside any event, named by the object's
 * class and the thread's count of such hashes, {@link #count}), and one that finds the object
 * hashed, or loses the race to install, logs nothing and keeps its counters as they were.
 * A replay's thread that finds the object unhashed installs its value only if its recording's
 * next event says it did; otherwise it waits for the thread that did to install it
 * ({@link #keepWaiting}). That thread's install came before the waiter's hash in the recording,
 * and every event it waits for came before its install, so the wait closes no cycle.
 *
 * <p>Not covered: an object Reprise itself hashes first to order an action on it (inside that
 * action's event, where no event can be logged), nor one a class initializer's context or an
 * unrecorded thread hashes first.
 */
public final class FirstHashes {
    /**
     * Whether threads other than main may run: set once, when main starts its first thread or
     * ends its alone phase, at the same event of a recording and its replays. Before, main alone
     * hashes everything first. Volatile: other threads read it without synchronizing with main.
     */
    private static volatile boolean othersRun;
    /**
     * How long a replay's thread waits for an object's recorded first hasher before giving it a
     * value of its own, as before this ordering: the hasher may be a thread the replay does not
     * run (an unrecorded one) or a part of the recording that was cut off.
     */
    private static final long WAIT_NANOS = 5_000_000_000L;

    private FirstHashes() {
    }

    /** From now on, other threads may race main to hash an object first: called by the thread registry. */
    public static void othersStarted() {
        othersRun = true;
    }

    /** Whether other threads may race to hash objects first: until then nothing is counted. */
    static boolean othersRun() {
        return othersRun;
    }

    /**
     * Counts a hash of the program's, on an object that hashes by identity, once other threads
     * run ({@link ThreadCtx#identityHashes}): every such hash, whether the object has its value
     * yet or not, which may differ in a replay. So the count names the same hash in a recording
     * and its replays, and a logged first hash is found at the very hash that made it.
     */
    static void count(ThreadCtx ctx) {
        if (mayRace(ctx)) {
            ctx.identityHashes++;
        }
    }

    /**
     * Whether {@code ctx}'s first hash here is one threads may race for: the program's own hash
     * (depth 0) on a recorded thread's own context, once threads other than main run. Decided
     * alike in a recording and its replays.
     */
    static boolean mayRace(ThreadCtx ctx) {
        return othersRun && ctx.depth == 0 && ctx.baseDepth == 0 && ctx.initializing == null && ctx != ThreadCtx.UNRECORDED;
    }

    /** Recording: {@code ctx}'s thread installed the value of the object of class {@code name} it hashes now. */
    static void recorded(ThreadCtx ctx, String name) {
        ctx.depth = 1; // the claim Ev.end releases
        Ev.begin(ctx, Ev.IDENTITY_FIRST, 0, digest(name, ctx.identityHashes)).end();
    }

    /**
     * Replay: whether the recording's thread installed the value of the object of class
     * {@code name} it hashes now, its next event saying so; if so, that event is read.
     */
    static boolean replayed(ThreadCtx ctx, String name) {
        ReplayEv r = (ReplayEv) ctx.ev;
        int digest = digest(name, ctx.identityHashes);
        ctx.depth = 1; // reading the stream is Reprise's work; and the claim Ev.end releases
        if (!r.nextIs(Ev.IDENTITY_FIRST, digest)) {
            ctx.depth = 0;
            return false;
        }
        Ev.begin(ctx, Ev.IDENTITY_FIRST, 0, digest).end();
        return true;
    }

    /** Replay: when a thread waiting for another to hash an object first ({@link #keepWaiting}) stops. */
    static long deadline() {
        return System.nanoTime() + WAIT_NANOS;
    }

    /**
     * Replay, on a thread waiting for another to give an object its value, as its recording's did
     * before this thread hashed it, after {@code spins} looks: false once {@code deadline} passed.
     */
    static boolean keepWaiting(int spins, long deadline) {
        if (spins < 64) {
            Thread.onSpinWait();
            return true;
        }
        if (System.nanoTime() - deadline > 0) {
            return false;
        }
        Thread.yield();
        return true;
    }

    private static int digest(String name, int count) {
        int h = (name.hashCode() * 31 + count) * 0x85EBCA6B;
        return h ^ (h >>> 15);
    }
}
