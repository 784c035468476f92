package dev.reprise.agent.runtime.events;

import dev.reprise.core.log.EventHeader;
import dev.reprise.core.log.EventInput;
import dev.reprise.core.log.RecordingCorruptException;

/**
 * The replaying half of {@link Ev}: each value is the one the recording logged, and each event's
 * operation, site and digest are checked against the recorded header ({@link Divergence}).
 */
public final class ReplayEv extends Ev {
    public final EventInput in;
    private final StreamEnds ends;
    private long payloadEnd;
    /** The event read was logged under the operation's relaxed twin. */
    private boolean relaxed;
    /** The stream held a run before the current event; its events' sites were not recorded. */
    private boolean readRuns;

    public ReplayEv(ThreadCtx ctx, EventInput in, StreamEnds ends) {
        super(ctx, !ctx.jdkInit);
        this.in = in;
        this.ends = ends;
    }

    /** Reads the index that begins an application class initializer's stream; -1 if the stream does not begin so. */
    public static long readInitIndex(EventInput in) {
        EventHeader h = EventHeader.read(in);
        return h.op() == INIT_INDEX.id && !h.threw() ? in.getVarLong() : -1;
    }

    /** Whether the stream holds no further event, not even a counted one. */
    public boolean exhausted() {
        try {
            return run == 0 && in.atEnd();
        } catch (RecordingCorruptException e) {
            throw ends.corrupt(e);
        }
    }

    /**
     * Whether the stream's next event, read without taking it, is one of {@code op} with
     * {@code digest}: for an event a recording writes where a replay cannot tell by itself
     * whether one is due ({@code ProvisionalHashes}). A marked end of main's alone phase before
     * it is looked past.
     */
    public boolean nextIs(Op op, int digest) {
        if (run > 0) {
            return false;
        }
        try {
            if (in.atEnd()) {
                return false;
            }
            int at = 0;
            long first = in.peekVarLong(0);
            if (first == (long) ALONE_END.id << 1 && in.peekVarLong(3) == 0) {
                at = 4;
                first = in.peekVarLong(at);
            }
            long recorded = in.peekVarLong(at + 2);
            return first == (long) op.id << 1 && recorded >= 0 && (int) recorded == digest;
        } catch (RecordingCorruptException e) {
            throw ends.corrupt(e);
        }
    }

    /** True if the event read is the relaxed twin of its operation. */
    public boolean relaxed() {
        return relaxed;
    }

    @Override
    void start(int op, int site, int digest) {
        this.op = op;
        this.site = site;
        this.digest = digest;
        this.open = true;
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
            h = nextHeader();
            if (h == null) {
                run = ends.cutTail(ctx, op, site, relaxedTwin != 0) - 1;
                takeFromRun();
                return;
            }
        } catch (EventInput.EndOfStream e) {
            ends.endOfRecording(ctx, op, site);
            return;
        } catch (RecordingCorruptException e) {
            throw ends.corrupt(e);
        }
        payloadEnd = in.position() + h.length();
        if (h.op() == RUN.id) {
            readRuns = true;
            run = in.getVarLong() - 1;
            ctx.eventNo++;
            takeFromRun();
            return;
        }
        if (h.op() == OVERFLOW.id && op != h.op()) {
            // The recording's stack overflowed in this call (Overflows): so does the replay's.
            ctx.eventNo++;
            open = false;
            ctx.depth = 0;
            ctx.overflowReplayed = true;
            throw new StackOverflowError();
        }
        relaxed = relaxedTwin != 0 && h.op() == relaxedTwin;
        if (relaxed) {
            this.op = relaxedTwin;
        }
        if ((h.op() != op && !relaxed) || h.site() != site || h.digest() != digest) {
            Divergence.report(ctx, h.op(), h.site(), h.digest(), op, site, digest);
        }
        if (h.threw()) {
            Throwable t = Exceptions.read(in);
            end();
            throw sneaky(t);
        }
    }

    /**
     * The next event's header, or null at the stream's end. A settled identity hash this replay
     * did not look for is passed over, counted: its object took its value otherwise here, as it
     * would have before settlements were written (a JVM hash, say), which need not diverge. So is
     * a hidden class's name: the class keeps the JVM's.
     */
    private EventHeader nextHeader() {
        while (!in.atEnd()) {
            EventHeader h = EventHeader.read(in);
            if (h.op() == ALONE_END.id && h.length() == 0) {
                ctx.eventNo++;
                aloneEnding = true;
                h = EventHeader.read(in); // the event it marks
            }
            if (!passable(h.op()) || h.op() == op) {
                return h;
            }
            in.skip(h.length());
            ctx.eventNo++;
        }
        return null;
    }

    /** Whether an event of operation {@code op} is written only where a replay may not look for it. */
    private static boolean passable(int op) {
        return op == IDENTITY_SETTLED.id || op == HIDDEN_CLASS_NAME.id;
    }

    /**
     * This event is one of a run's relaxed events, which have no values. A wait is never one: it
     * writes its outcome, relaxed or not ({@code MonitorOps}), so in a cut tail it is where the exit
     * cut the thread, in the wait, the monitor released.
     */
    private void takeFromRun() {
        if (relaxedTwin == 0 || ctx.waitMonitor != null) {
            notCounted();
        }
        relaxed = true;
        op = relaxedTwin;
        inRun = true;
        payloadEnd = in.position();
    }

    /**
     * A run's next event is one no run counts: one without a relaxed twin, a wait, or one with a
     * value (a relaxed event with values is written whole, {@code RecordEv.out}). Past the
     * stream's end it is where the exit cut the thread, though the thread's count took it in
     * (CutTails); before the end, the program made another operation than the recording.
     */
    private void notCounted() {
        if (in.atEnd()) {
            ends.endOfRecording(ctx, op, site);
        }
        Divergence.relaxedExpected(ctx, op, site, digest);
    }

    /** The stream, to read a value of the current event from: an event taken from a run has none. */
    private EventInput values() {
        if (inRun) {
            notCounted();
        }
        return in;
    }

    @Override
    public boolean counted(boolean usual) {
        return relaxed;
    }

    /** Taken from the run the stream is in, if one is left. */
    @Override
    public boolean takeRelaxed() {
        if (countsRelaxed && run > 0) {
            run--;
            return true;
        }
        return false;
    }

    /** Whether this thread replayed relaxed events from counts, whose sites the recording did not keep. */
    boolean readRuns() {
        return readRuns;
    }

    @Override
    public boolean recording() {
        return false;
    }

    @Override
    public long j(long v) {
        return values().getSignedVarLong();
    }

    @Override
    public String s(String v) {
        return values().getString();
    }

    @Override
    public void fill(byte[] b, int off, int len) {
        values().getBytes(b, off, len);
    }

    @Override
    public byte[] blob(byte[] v) {
        return values().getBlob();
    }

    @Override
    public RuntimeException threw(Throwable t) {
        throw sneaky(t);
    }

    @Override
    void abandon() {
        open = false;
        inRun = false;
    }

    @Override
    public Throwable failure(Throwable t) {
        return values().getVarLong() == 0 ? null : Exceptions.read(in);
    }

    @Override
    public void end() {
        if (!open) {
            return;
        }
        open = false;
        if (inRun) {
            inRun = false; // taken from the run
        } else {
            ctx.eventNo++;
            if (in.position() != payloadEnd) {
                long off = in.position() - payloadEnd;
                Divergence.mismatch(Op.nameOf(op), "it decoded " + Math.abs(off) + " bytes " + (off < 0 ? "less" : "more")
                        + " than the recorded payload");
            }
            endAloneIfMarked();
        }
        ctx.depth = 0;
    }
}
