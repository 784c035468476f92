package dev.reprise.agent.runtime.identity;

import dev.reprise.agent.runtime.events.Ev;
import dev.reprise.agent.runtime.events.ReplayEv;
import dev.reprise.agent.runtime.events.ThreadCtx;

/**
 * The values of objects first hashed inside an event, until the program itself hashes them. Code
 * that runs inside an event may differ between a recording and its replays (its live work runs
 * only when recording, and may reach code a library wove into the JDK's methods, which hashes the
 * objects it meets), so such a hash cannot come from the thread's counters, nor be the JVM's draw:
 * either would leave the object another value in a replay. It gets a provisional value instead,
 * kept here. When the program first hashes such an object, outside an event, it settles: a
 * recording keeps the value and logs it ({@link Ev#IDENTITY_SETTLED}, an event of that moment),
 * and a replay takes the logged one. A replay cannot tell by itself that a recording's object was
 * hashed before; so wherever the program has it give an object its value, it first asks whether
 * the recording's next event is this settlement, named by the object's class and count
 * ({@link #replayed}). Where Reprise itself hashes such an object, it takes the counters' value
 * in every run, with no event ({@code IdentityHashes.replace}).
 *
 * <p>The objects are kept in a weak table. A provisional value has fixed low bits
 * ({@link #marked}), so that the bits it sets in {@code IdentityHashes.HELD_SPILLS}, which send
 * the objects whose hashes share its low 16 bits off the fast path, are 16 at most, however many
 * objects Reprise's own work hashes inside events (its instrumentation's labels, the JDK's jar
 * entry streams): thousands in a small program. The price is in tables indexed by a hash's low
 * bits alone ({@code IdentityHashMap}), where such objects collide.
 */
final class ProvisionalHashes {
    /** The low bits every provisional value has. */
    private static final int LOW_MASK = 0xFFF;
    private static final int LOW_BITS = 0xA5B;
    private static final WeakIdentityTable<Boolean> OBJECTS = new WeakIdentityTable<>();

    private ProvisionalHashes() {
    }

    /** {@code v} as a provisional value: non-zero, with its low bits replaced. */
    static int of(int v) {
        return v & ~LOW_MASK | LOW_BITS;
    }

    /** Whether {@code hash} may be a provisional value: one test before a look in the table. */
    static boolean marked(int hash) {
        return (hash & LOW_MASK) == LOW_BITS;
    }

    /** Lists {@code o}, about to get a provisional value. */
    static void add(Object o) {
        OBJECTS.put(o, Boolean.TRUE);
    }

    static boolean contains(Object o) {
        return OBJECTS.get(o) != null;
    }

    /** Takes {@code o} off the list; false if it was not on it (another thread settled it first). */
    static boolean remove(Object o) {
        return OBJECTS.remove(o);
    }

    /**
     * Recording, at depth 0 of a recorded thread: logs the settlement of the {@code count}th
     * object named {@code name} with the value {@code v} it kept.
     */
    static void recorded(ThreadCtx ctx, String name, int count, int v) {
        ctx.depth = 1; // the claim Ev.end releases
        Ev ev = Ev.begin(ctx, Ev.IDENTITY_SETTLED, 0, digest(name, count));
        try {
            ev.i(v);
        } finally {
            ev.end();
        }
    }

    /**
     * Replay, at depth 0 of a recorded thread, where the {@code count}th object named {@code name}
     * gets its value: the value its recording settled it with, if the recording's next event is
     * that settlement; otherwise 0.
     */
    static int replayed(ThreadCtx ctx, String name, int count) {
        if (!(ctx.ev instanceof ReplayEv r)) {
            return 0;
        }
        int digest = digest(name, count);
        ctx.depth = 1; // reading the stream is Reprise's work; and the claim Ev.end releases
        if (!r.nextIs(Ev.IDENTITY_SETTLED, digest)) {
            ctx.depth = 0;
            return 0;
        }
        Ev ev = Ev.begin(ctx, Ev.IDENTITY_SETTLED, 0, digest);
        try {
            return ev.i(0);
        } finally {
            ev.end();
        }
    }

    private static int digest(String name, int count) {
        int h = (name.hashCode() * 31 + count) * 0x9E3779B9;
        return h ^ (h >>> 16);
    }
}
