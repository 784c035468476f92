package dev.reprise.agent.runtime.events;

/**
 * One intercepted operation, written once for both roles. Each value method records its argument
 * and returns it while recording ({@link RecordEv}), and returns the logged value while
 * replaying ({@link ReplayEv}), so a hook reads as straight-line code:
 *
 * <pre>
 * Ev ev = Ev.begin(OP, site, digest);
 * try {
 *     int n = ev.live() ? liveCall() : 0;
 *     return ev.i(n);
 * } catch (Throwable t) {
 *     throw ev.threw(t);
 * } finally {
 *     ev.end();
 * }
 * </pre>
 *
 * An event is an {@code EventHeader}, then the values in the order the hook codes them. A thrown
 * exception replaces the values with its class name and message. One instance per thread is
 * reused: no allocation per event. A JVM makes instances of one half only, so every call on an
 * {@code Ev} meets one receiver class, which the JIT inlines behind a class check.
 *
 * <p>Relaxed events that code no value (most of a thread's synchronization on its own objects,
 * and the usual outcome of an operation that has one, {@link #counted}) are not written one by
 * one: a thread counts them, and writes the count as one {@code sync.relaxed.run} event before
 * its next written event. Replay takes that many of the thread's next events that have a twin as
 * relaxed. A count never written (the exit cut the thread off) loses nothing: replay treats a
 * cut-off thread as having completed all its events ({@code ReplayOrder.cutOff}).
 * {@code ctx.eventNo} numbers the events as the stream holds them.
 */
public abstract class Ev {
    static final Op RUN = Op.named("sync.relaxed.run");
    /** First in an application class initializer's stream: the index its ordering names it by ({@code ClassInits}). */
    static final Op INIT_INDEX = Op.named("class.init.index");
    /** In place of an event a stack overflow cut short ({@link Overflows}). */
    static final Op OVERFLOW = Op.named("thread.stack.overflow");
    /** Main's: its alone phase ends as the event after this one ends ({@link AloneEnd}). */
    static final Op ALONE_END = Op.named("sync.alone.end");
    /**
     * An object first hashed inside an event got its value where the program first hashed it
     * ({@code identity/ProvisionalHashes}). Written only where a replay looks for one; one the
     * replay did not look for is passed over ({@link ReplayEv}).
     */
    public static final Op IDENTITY_SETTLED = Op.named("identity.settled");
    /**
     * The name the JVM gave a hidden class the program defined ({@code ops/classes/HiddenClassOps}).
     * Written where the definition was, which may be inside the JDK's linking of a call site: a
     * replay whose thread links it at another moment, or not at all, passes it over.
     */
    public static final Op HIDDEN_CLASS_NAME = Op.named("class.hidden.name");

    final ThreadCtx ctx;
    /**
     * Whether relaxed events without values go into runs. Not in a class initializer's stream,
     * which ends with the initializer: a count left unwritten there would be lost. Not when
     * recording under {@code --log-relaxed}: each is written with its site, and replay checks it
     * as it checks an ordered event, so that a divergence is reported at its first differing action.
     * Not in main's recording while a cleanup asks main to end its alone phase ({@link AloneEnd}):
     * main's next event is then written, with the phase's end marked before it. Only that
     * request writes it from another thread; a late sight of it costs the cleanup a wait.
     */
    boolean countsRelaxed;
    int op;
    int site;
    int digest;
    boolean open;
    /** The relaxed twin of the event's operation, or 0 if it has none. */
    int relaxedTwin;
    /** Record: relaxed events counted but not yet written. Replay: how many more the last run covers. */
    public long run;
    /** Record: this event is counted in {@link #run}. Replay: this event was taken from a run. */
    boolean inRun;
    /** Main's alone phase ends as this event ends: the stream holds {@link #ALONE_END} before it. */
    boolean aloneEnding;

    Ev(ThreadCtx ctx, boolean countsRelaxed) {
        this.ctx = ctx;
        this.countsRelaxed = countsRelaxed;
    }

    /** Starts an event on a thread whose call {@link Rt#claim() claimed} it. */
    public static Ev begin(Op op, int site, int digest) {
        return begin(Rt.current(), op, site, digest);
    }

    public static Ev begin(ThreadCtx ctx, Op op, int site, int digest) {
        Ev ev = ctx.ev;
        ev.relaxedTwin = op.relaxed == null ? 0 : op.relaxed.id;
        ev.start(op.id, site, digest);
        return ev;
    }

    /** Opens the event: recording, writes (or defers) its header; replaying, reads and checks the recorded one. */
    abstract void start(int op, int site, int digest);

    /**
     * For an operation with a relaxed twin ({@link Op#withRelaxedTwin}) whose outcome is usually the
     * same: recording, whether {@code usual} holds, and if so the event is counted under the twin
     * instead of written; replay, whether the recorded event was. Only an event that is not
     * counted may code values.
     */
    public abstract boolean counted(boolean usual);

    /** Whether this stream counts its relaxed events in runs rather than writing each ({@link #takeRelaxed}). */
    public final boolean countsRelaxed() {
        return countsRelaxed;
    }

    /**
     * An event without values that is relaxed, taken without opening it ({@code SyncOrder.take}):
     * recording, counted in the run; replaying, taken from the run the stream is in, if one is
     * left. False if not taken: open the event.
     */
    public abstract boolean takeRelaxed();

    /** Whether an event is open on this thread: one begun and not yet ended. */
    public final boolean opened() {
        return open;
    }

    /** The operation and call site of the event opened last, for a report on this thread. */
    public final String lastOpened() {
        return Op.nameOf(op) + " at " + Sites.nameOf(site);
    }

    /** True when the operation must run for real: recording. */
    public final boolean live() {
        return recording();
    }

    public abstract boolean recording();

    public abstract long j(long v);

    public final int i(int v) {
        return (int) j(v);
    }

    public final boolean z(boolean v) {
        return j(v ? 1 : 0) != 0;
    }

    public abstract String s(String v);

    /** Bytes the operation produced into {@code b[off, off+len)}: logged, or filled in on replay. */
    public abstract void fill(byte[] b, int off, int len);

    /** A length-prefixed byte array result. */
    public abstract byte[] blob(byte[] v);

    /** Records that the operation threw {@code t}; rethrows it (the return type is for {@code throw}). */
    public abstract RuntimeException threw(Throwable t);

    /** Closes the open event, if any, without finishing it: a stack overflow cut it short ({@link Overflows}). */
    abstract void abandon();

    /**
     * A failure the hook handles itself, as one of the event's values: recording logs whether
     * {@code t} is null and, if not, the exception; replaying returns the recorded one, or null.
     * For an operation whose replay runs part of its work live even where the recording's failed.
     */
    public abstract Throwable failure(Throwable t);

    /** Ends the event and releases the thread's claim. Idempotent. */
    public abstract void end();

    /**
     * As a written event ends, in a recording and its replays alike: if the stream marked it
     * ({@link #aloneEnding}), main's alone phase ends here, after the event's ordering was
     * decided as the phase's, at the same point of main's run in both.
     */
    final void endAloneIfMarked() {
        if (aloneEnding) {
            aloneEnding = false;
            AloneEnd.end();
        }
    }

    @SuppressWarnings("unchecked")
    static <T extends Throwable> RuntimeException sneaky(Throwable t) throws T {
        throw (T) t;
    }
}
