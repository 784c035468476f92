package dev.reprise.agent.runtime;

import dev.reprise.core.log.EventBuffer;
import dev.reprise.core.log.EventHeader;
import dev.reprise.core.log.EventInput;
import dev.reprise.core.log.RecordingCorruptException;
import jdk.internal.vm.annotation.DontInline;

/**
 * One intercepted operation, written once for both roles. Each value method records its argument
 * and returns it while recording, and returns the logged value while replaying, so a hook reads
 * as straight-line code:
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
 * An event is an {@link EventHeader}, then the values in the order the hook codes them. A thrown
 * exception replaces the values with its class name and message. One instance per thread is reused: no allocation
 * per event.
 *
 * <p>Relaxed events that code no value (most of a thread's synchronization on its own objects,
 * and the usual outcome of an operation that has one, {@link #counted}) are not written one by
 * one: a thread counts them, and writes the count as one {@code sync.relaxed.run} event before
 * its next written event. Replay takes that many of the thread's next events that have a twin as
 * relaxed. A count never written (the exit cut the thread off) loses nothing: replay treats a
 * cut-off thread as having completed all its events ({@code SyncOrder.cutOff}).
 * {@code ctx.eventNo} numbers the events as the stream holds them.
 */
public final class Ev {
    private static final Op RUN = Op.named("sync.relaxed.run");
    /** First in an application class initializer's stream: the index its ordering names it by ({@link ClassInits}). */
    private static final Op INIT_INDEX = Op.named("class.init.index");

    private final ThreadCtx ctx;
    private final boolean recording;
    /**
     * Whether relaxed events without values go into runs. Not in a class initializer's stream,
     * which ends with the initializer: a count left unwritten there would be lost. Not when
     * recording under {@code --log-relaxed}: each is written with its site, and replay checks it
     * as it checks an ordered event, so that a divergence is reported at its first differing action.
     */
    private final boolean countsRelaxed;
    /**
     * Record: the stream is an application class initializer's and holds nothing yet. Its index
     * is written before its first event, so a stream exists only for an initializer that logged
     * something; replay reads it as it opens the stream ({@link #readInitIndex}).
     */
    private boolean indexPending;
    private int headerMark;
    private int lengthMark;
    private long payloadEnd;
    private int op;
    private int site;
    private int digest;
    private boolean open;
    /** Replay: the event read was logged under the operation's relaxed twin. */
    private boolean relaxed;
    /** Record: relaxed events counted but not yet written. Replay: how many more the last run covers. */
    private long run;
    /** Record: this event is counted in {@link #run}. Replay: this event was taken from a run. */
    private boolean inRun;
    /** Replay: the stream held a run before the current event; its events' sites were not recorded. */
    private boolean readRuns;

    Ev(ThreadCtx ctx) {
        this.ctx = ctx;
        this.recording = ctx.log != null;
        // A JDK initializer's stream has no end event to write a count before, so its relaxed
        // events are written whole; an application initializer's ends with class.init.end.
        this.countsRelaxed = !ctx.jdkInit && !(recording && Session.current().config().logRelaxed());
        this.indexPending = recording && ctx.initializing != null && !ctx.jdkInit;
    }

    /**
     * Replay: reads the index that begins an application class initializer's stream; -1 if the
     * stream does not begin so.
     */
    static long readInitIndex(EventInput in) {
        EventHeader h = EventHeader.read(in);
        return h.op() == INIT_INDEX.id && !h.threw() ? in.getVarLong() : -1;
    }

    /** Starts an event on a thread whose call {@link Rt#claim() claimed} it. */
    public static Ev begin(Op op, int site, int digest) {
        return begin(Rt.current(), op, site, digest);
    }

    static Ev begin(ThreadCtx ctx, Op op, int site, int digest) {
        Ev ev = ctx.ev;
        ev.relaxedTwin = op.relaxed == null ? 0 : op.relaxed.id;
        ev.start(op.id, site, digest);
        return ev;
    }

    /**
     * Record: readies an event of an operation with a relaxed twin without opening it. Whether it
     * is ordered is decided next ({@link #header}): an ordered one is opened then, a relaxed one is
     * only counted in the run, and never opened. {@link #end} ends it either way. The claim
     * stays the caller's until then.
     */
    static Ev prepare(ThreadCtx ctx, Op op, int site, int digest) {
        Ev ev = ctx.ev;
        ev.relaxedTwin = op.relaxed.id;
        ev.op = op.id;
        ev.site = site;
        ev.digest = digest;
        ev.prepared = true;
        return ev;
    }

    /** Replay: true if the event read is the relaxed twin of its operation. */
    public boolean relaxed() {
        return relaxed;
    }

    /**
     * Record: writes the header of an ordered operation's event, whose ordering has just been
     * decided: under the operation's relaxed twin if {@code relaxed}. An ordered event's header
     * waits for that decision, so it is written once; a value coded before it forces it, unrelaxed.
     */
    void header(boolean relaxed) {
        if (prepared && !open) {
            if (relaxed && takeRelaxed()) {
                return;
            }
            open = true; // ordered, or in a class initializer's stream: opened as start() would
        }
        headerPending = false;
        if (relaxed) {
            op = relaxedTwin;
            if (countsRelaxed) {
                inRun = true;
                run++;
                return;
            }
        }
        writeHeader(false);
    }

    /**
     * For an operation with a relaxed twin ({@link Op#withRelaxedTwin}) whose outcome is usually the
     * same: recording, whether {@code usual} holds, and if so the event is counted under the twin
     * instead of written; replay, whether the recorded event was. Only an event that is not
     * counted may code values.
     */
    public boolean counted(boolean usual) {
        if (recording) {
            header(usual);
            return usual;
        }
        return relaxed;
    }

    /** Whether this stream counts its relaxed events in runs rather than writing each ({@link #takeRelaxed}). */
    boolean countsRelaxed() {
        return countsRelaxed;
    }

    /**
     * An event without values that is relaxed, taken without opening it ({@code SyncOrder.take}):
     * recording, counted in the run, as {@link #header header(true)} counts it; replaying, taken
     * from the run the stream is in, if one is left. False if not taken: open the event.
     */
    boolean takeRelaxed() {
        if (!countsRelaxed) {
            return false;
        }
        if (recording) {
            run++;
            return true;
        }
        if (run > 0) {
            run--;
            return true;
        }
        return false;
    }

    /**
     * Record: writes this event's header, after the count of the relaxed events before it. Not
     * inlined: every path that may write an event reaches it, most of them rarely, and compiled
     * into each it made their code kilobytes larger (docs/ARCHITECTURE.md, "Compiled code").
     */
    @DontInline
    private void writeHeader(boolean threw) {
        if (indexPending) {
            indexPending = false;
            EventBuffer b = ctx.log.buffer();
            int mark = EventHeader.write(b, INIT_INDEX.id, false, 0, 0);
            b.putVarLong(ctx.index);
            b.closeLength(mark);
            commit();
        }
        if (run > 0) {
            EventBuffer b = ctx.log.buffer();
            int mark = EventHeader.write(b, RUN.id, false, 0, 0);
            b.putVarLong(run);
            b.closeLength(mark);
            run = 0;
            commit();
        }
        EventBuffer b = ctx.log.buffer(); // a new one if the commit handed the last over
        headerMark = b.position();
        lengthMark = EventHeader.write(b, op, threw, site, digest);
    }

    /** Not inlined, as {@link #writeHeader}: it may hand a full buffer to the writer. */
    @DontInline
    private void commit() {
        ctx.log.commit();
        ctx.eventNo++;
    }

    private int relaxedTwin;
    /** Record: the open event is ordered and its header not yet written ({@link #header}). */
    private boolean headerPending;
    /** Record: the event was readied by {@link #prepare}, and is open only if found ordered. */
    private boolean prepared;

    /** Record: the buffer values go to, after the event's header. */
    private EventBuffer out() {
        if (headerPending) {
            header(false);
        } else if (inRun) {
            // A relaxed event with values is written whole, after the events counted before it.
            inRun = false;
            run--;
            writeHeader(false);
        }
        return ctx.log.buffer();
    }

    private void start(int op, int site, int digest) {
        this.op = op;
        this.site = site;
        this.digest = digest;
        this.open = true;
        if (recording) {
            headerPending = relaxedTwin != 0;
            if (!headerPending) {
                writeHeader(false);
            }
            return;
        }
        if (ctx.chaos != null) {
            ctx.chaos.beforeEvent();
        }
        if (ctx.eventNo == ctx.stopBefore) {
            Debuggee.reached(ctx);
        }
        if (run > 0) {
            run--;
            takeFromRun();
            return;
        }
        EventHeader h;
        try {
            if (ctx.in.atEnd()) {
                Session.current().endOfRecording(ctx, op, site);
            }
            h = EventHeader.read(ctx.in);
        } catch (EventInput.EndOfStream e) {
            Session.current().endOfRecording(ctx, op, site);
            return;
        } catch (RecordingCorruptException e) {
            throw Session.current().corrupt(e);
        }
        payloadEnd = ctx.in.position() + h.length();
        if (h.op() == RUN.id) {
            readRuns = true;
            run = ctx.in.getVarLong() - 1;
            ctx.eventNo++;
            takeFromRun();
            return;
        }
        relaxed = relaxedTwin != 0 && h.op() == relaxedTwin;
        if (relaxed) {
            this.op = relaxedTwin;
        }
        if ((h.op() != op && !relaxed) || h.site() != site || h.digest() != digest) {
            Divergence.report(ctx, h.op(), h.site(), h.digest(), op, site, digest);
        }
        if (h.threw()) {
            Throwable t = Exceptions.read(ctx.in);
            end();
            throw sneaky(t);
        }
    }

    /** Replay: this event is one of a run's relaxed events, which have no values. */
    private void takeFromRun() {
        if (relaxedTwin == 0) {
            Divergence.relaxedExpected(ctx, op, site, digest);
        }
        relaxed = true;
        op = relaxedTwin;
        inRun = true;
        payloadEnd = ctx.in.position();
    }

    /** Record: whether relaxed events were counted since the last event written. */
    boolean counting() {
        return run > 0;
    }

    /** Replay: whether this thread replayed relaxed events from counts, whose sites the recording did not keep. */
    boolean readRuns() {
        return readRuns;
    }

    /** The operation and call site of the event opened last, for a report on this thread. */
    String lastOpened() {
        return Op.nameOf(op) + " at " + Sites.nameOf(site);
    }

    /** True when the operation must run for real (recording). */
    public boolean live() {
        return recording;
    }

    public boolean recording() {
        return recording;
    }

    public long j(long v) {
        if (recording) {
            out().putSignedVarLong(v);
            return v;
        }
        return ctx.in.getSignedVarLong();
    }

    public int i(int v) {
        return (int) j(v);
    }

    public boolean z(boolean v) {
        return j(v ? 1 : 0) != 0;
    }

    public String s(String v) {
        if (recording) {
            out().putString(v);
            return v;
        }
        return ctx.in.getString();
    }

    /** Bytes the operation produced into {@code b[off, off+len)}: logged, or filled in on replay. */
    public void fill(byte[] b, int off, int len) {
        if (recording) {
            out().putBytes(b, off, len);
        } else {
            ctx.in.getBytes(b, off, len);
        }
    }

    /** A length-prefixed byte array result. */
    public byte[] blob(byte[] v) {
        if (recording) {
            out().putBlob(v, 0, v.length);
            return v;
        }
        return ctx.in.getBlob();
    }

    /** Records that the operation threw {@code t}; rethrows it (the return type is for {@code throw}). */
    public RuntimeException threw(Throwable t) {
        if (recording && open) {
            if (inRun) {
                inRun = false;
                run--;
            } else if (!headerPending) {
                ctx.log.buffer().truncate(headerMark);
            }
            headerPending = false;
            writeHeader(true);
            Exceptions.write(t, ctx.log.buffer());
        }
        throw sneaky(t);
    }

    /** Ends the event and releases the thread's claim. Idempotent. */
    public void end() {
        if (!open) {
            if (prepared) {
                prepared = false; // relaxed and counted: only the claim to release
                ctx.depth = 0;
            }
            return;
        }
        open = false;
        prepared = false;
        if (inRun) {
            inRun = false; // record: counted in the run; replay: taken from it
        } else if (recording) {
            out().closeLength(lengthMark);
            commit();
        } else {
            ctx.eventNo++;
            if (ctx.in.position() != payloadEnd) {
                long off = ctx.in.position() - payloadEnd;
                Divergence.mismatch(Op.nameOf(op), "it decoded " + Math.abs(off) + " bytes " + (off < 0 ? "less" : "more")
                        + " than the recorded payload");
            }
        }
        ctx.depth = 0;
    }

    @SuppressWarnings("unchecked")
    static <T extends Throwable> RuntimeException sneaky(Throwable t) throws T {
        throw (T) t;
    }
}
