package dev.reprise.agent.runtime.ordering;

import dev.reprise.agent.runtime.events.Divergence;
import dev.reprise.agent.runtime.events.ReplayEv;
import dev.reprise.agent.runtime.events.ThreadCtx;

import static dev.reprise.agent.runtime.ordering.SyncOrder.*;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Arrays;

/**
 * The replaying half of {@link SyncOrder}: reads each event's logged ordering and holds the
 * thread until it is met, each thread publishing how many synchronization events it completed.
 * An RTO event waits until each edge's thread has completed that many events; a TO event for
 * its turn of the sequence. The shared counters are reached through VarHandles, as
 * {@link RecordOrder}'s are.
 */
public final class ReplayOrder {
    private static final VarHandle SEQUENCE = SyncOrder.staticLong(MethodHandles.lookup(), "sequence");
    /** TO: the number whose turn it is. Through {@link #SEQUENCE}. */
    @SuppressWarnings("unused")
    private static long sequence;
    /**
     * How many synchronization events each thread has completed; volatile accesses through
     * {@link SyncOrder#LONGS}. A recording never initializes this class, so never allocates this table.
     */
    private static final long[] PROGRESS = new long[MAX_THREADS];
    /** The progress of a thread whose stream the exit cut off, once it has replayed all of it. */
    private static final long ALL = COUNT_MASK + 1;
    /** TO: the turns whose events the recording's exit cut off, sorted; the sequence passes over them. */
    private static long[] cutTurns = new long[0];

    private ReplayOrder() {
    }

    /** The events all threads completed, a number that grows while the replay progresses. */
    public static long totalProgress() {
        long sum = (long) SEQUENCE.getVolatile();
        for (int i = 0, n = Threads.indexes(); i < n; i++) {
            sum += progress(i);
        }
        for (int i = Threads.initFloor(); i < MAX_THREADS; i++) {
            sum += progress(i);
        }
        return sum;
    }

    /** How many synchronization events thread {@code index} has completed. */
    static long progress(int index) {
        return (long) LONGS.getVolatile(PROGRESS, index);
    }

    /** TO, before any event: the turns the recording's exit cut off ({@link RecordOrder#cutTurns}). */
    public static void skipCutTurns(long[] turns) {
        cutTurns = turns.clone();
        SEQUENCE.setVolatile(nextTurn(0));
    }

    private static long nextTurn(long turn) {
        long[] cut = cutTurns;
        while (cut.length > 0 && Arrays.binarySearch(cut, turn) >= 0) {
            turn++;
        }
        return turn;
    }

    /**
     * {@code ctx} has replayed its whole stream, which the exit cut off while the thread
     * still ran. RTO edges may name its events that no stream holds (an event open at the cut,
     * or drawn after it); they all came after what it replayed, and it does nothing more.
     */
    public static void cutOff(ThreadCtx ctx) {
        if (ctx.index >= 0) {
            LONGS.setVolatile(PROGRESS, ctx.index, ALL);
            Waiter.progressed();
        }
    }

    /** Reads the event's ordering into {@code ctx}; {@link #ready} then says when it may proceed. */
    static void readTurn(ReplayEv ev, ThreadCtx ctx) {
        ctx.awaitSeq = -1;
        ctx.awaitEdges = 0;
        if (ev.relaxed()) {
            return;
        }
        int kind = (int) ev.j(0);
        if (kind == TURN) {
            ctx.awaitSeq = ev.j(0);
            return;
        }
        long edges = kind == EDGES ? ev.j(0) : 1;
        if (edges < 1 || edges > ThreadCtx.MAX_EDGES) {
            Divergence.mismatch("synchronization order",
                    "an event is ordered after " + edges + " others; at most " + ThreadCtx.MAX_EDGES + " can be");
        }
        for (int i = 0; i < edges; i++) {
            ctx.awaitThreads[i] = (int) ev.j(0);
            ctx.awaitCounts[i] = ev.j(0);
        }
        ctx.awaitEdges = (int) edges;
    }

    /**
     * Whether the event read by {@link #readTurn} may proceed now. Other threads ask it
     * about a parked one too ({@link Waiter#progressed}), so it changes nothing.
     */
    static boolean ready(ThreadCtx ctx) {
        if (ctx.awaitSeq >= 0) {
            return (long) SEQUENCE.getVolatile() == ctx.awaitSeq;
        }
        return unmetEdge(ctx) < 0;
    }

    /** The first of the edges read by {@link #readTurn} whose thread has not reached its count, or -1. */
    public static int unmetEdge(ThreadCtx ctx) {
        for (int i = 0; i < ctx.awaitEdges; i++) {
            int thread = ctx.awaitThreads[i];
            if (thread >= 0 && progress(thread) < ctx.awaitCounts[i]) {
                return i;
            }
        }
        return -1;
    }

    /** Before acquiring: reads the event's ordering and waits until it may proceed. */
    static void awaitTurn(ReplayEv ev, ThreadCtx ctx) {
        readTurn(ev, ctx);
        Waiter.await(ctx);
    }

    /** After an event {@link SyncOrder#take} took. */
    static void completedTaken(ThreadCtx ctx) {
        if (ctx.index == 0 && !Threads.othersStarted()) {
            // No other recorded thread exists to wait for this progress, so none is parked to
            // wake: a release suffices where completed() needs the volatile store that pairs
            // with a parked waiter's count. A thread started later reads it after its start.
            LONGS.setRelease(PROGRESS, 0, ++ctx.syncCount);
        } else {
            completed(ctx);
        }
    }

    /** After acquiring: publishes this thread's progress (and passes the TO turn on). */
    static void completed(ThreadCtx ctx) {
        LONGS.setVolatile(PROGRESS, ctx.index, ++ctx.syncCount);
        if (ctx.awaitSeq >= 0) {
            SEQUENCE.setVolatile(nextTurn(ctx.awaitSeq + 1));
            ctx.awaitSeq = -1;
        }
        ctx.awaitEdges = 0;
        Waiter.progressed();
    }
}
