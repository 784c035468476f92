package dev.reprise.agent.runtime.events;

import dev.reprise.core.log.EventBuffer;
import dev.reprise.core.log.EventHeader;
import dev.reprise.core.log.ThreadLog;
import jdk.internal.vm.annotation.DontInline;

/**
 * The recording half of {@link Ev}: each value is written into the thread's log and returned. An
 * event with a relaxed twin waits for its ordering to be decided before its header is written
 * ({@link #header}), so that a relaxed one is only counted.
 */
public final class RecordEv extends Ev {
    public final ThreadLog log;
    /**
     * The stream is an application class initializer's and holds nothing yet. Its index is
     * written before its first event, so a stream exists only for an initializer that logged
     * something; replay reads it as it opens the stream ({@link ReplayEv#readInitIndex}).
     */
    private boolean indexPending;
    private int headerMark;
    private int lengthMark;
    /** The open event is ordered and its header not yet written ({@link #header}). */
    private boolean headerPending;
    /** The event was readied by {@link #prepare}, and is open only if found ordered. */
    private boolean prepared;

    public RecordEv(ThreadCtx ctx, ThreadLog log, boolean logRelaxed) {
        // A JDK initializer's stream has no end event to write a count before, so its relaxed
        // events are written whole; an application initializer's ends with class.init.end.
        super(ctx, !ctx.jdkInit && !logRelaxed);
        this.log = log;
        this.indexPending = ctx.initializing != null && !ctx.jdkInit;
    }

    /** The stream begins with its context's index, as an application class initializer's does: a cleanup stream's ({@code Cleanups}). */
    public void writeIndexFirst() {
        indexPending = true;
    }

    /**
     * Readies an event of an operation with a relaxed twin without opening it. Whether it is
     * ordered is decided next ({@link #header}): an ordered one is opened then, a relaxed one is
     * only counted in the run, and never opened. {@link #end} ends it either way. The claim stays
     * the caller's until then.
     */
    public static RecordEv prepare(ThreadCtx ctx, Op op, int site, int digest) {
        RecordEv ev = (RecordEv) ctx.ev;
        ev.relaxedTwin = op.relaxed.id;
        ev.op = op.id;
        ev.site = site;
        ev.digest = digest;
        ev.prepared = true;
        return ev;
    }

    @Override
    void start(int op, int site, int digest) {
        this.op = op;
        this.site = site;
        this.digest = digest;
        this.open = true;
        headerPending = relaxedTwin != 0;
        if (!headerPending) {
            writeHeader(false);
        }
    }

    /**
     * Writes the header of an ordered operation's event, whose ordering has just been decided:
     * under the operation's relaxed twin if {@code relaxed}. An ordered event's header waits for
     * that decision, so it is written once; a value coded before it forces it, unrelaxed.
     */
    public void header(boolean relaxed) {
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

    @Override
    public boolean counted(boolean usual) {
        header(usual);
        return usual;
    }

    /** Counted in the run, as {@link #header header(true)} counts it. */
    @Override
    public boolean takeRelaxed() {
        if (!countsRelaxed) {
            return false;
        }
        run++;
        return true;
    }

    /** Whether relaxed events were counted since the last event written. */
    public boolean counting() {
        return run > 0;
    }

    /**
     * Writes this event's header, after the count of the relaxed events before it. Not inlined:
     * every path that may write an event reaches it, most of them rarely, and compiled into each
     * it made their code kilobytes larger (docs/ARCHITECTURE.md, "Compiled code").
     */
    @DontInline
    private void writeHeader(boolean threw) {
        if (indexPending) {
            indexPending = false;
            EventBuffer b = log.buffer();
            int mark = EventHeader.write(b, INIT_INDEX.id, false, 0, 0);
            b.putVarLong(ctx.index);
            b.closeLength(mark);
            commit();
        }
        if (run > 0) {
            EventBuffer b = log.buffer();
            int mark = EventHeader.write(b, RUN.id, false, 0, 0);
            b.putVarLong(run);
            b.closeLength(mark);
            run = 0;
            commit();
        }
        if (ctx.index == 0 && !aloneEnding && AloneEnd.wanted()) {
            EventBuffer b = log.buffer();
            b.closeLength(EventHeader.write(b, ALONE_END.id, false, 0, 0));
            commit();
            aloneEnding = true;
        }
        EventBuffer b = log.buffer(); // a new one if the commit handed the last over
        headerMark = b.position();
        lengthMark = EventHeader.write(b, op, threw, site, digest);
    }

    /** Not inlined, as {@link #writeHeader}: it may hand a full buffer to the writer. */
    @DontInline
    private void commit() {
        log.commit();
        ctx.eventNo++;
    }

    /** The buffer values go to, after the event's header. */
    private EventBuffer out() {
        if (headerPending) {
            header(false);
        } else if (inRun) {
            // A relaxed event with values is written whole, after the events counted before it.
            inRun = false;
            run--;
            writeHeader(false);
        }
        return log.buffer();
    }

    @Override
    public boolean recording() {
        return true;
    }

    @Override
    public long j(long v) {
        out().putSignedVarLong(v);
        return v;
    }

    @Override
    public String s(String v) {
        out().putString(v);
        return v;
    }

    @Override
    public void fill(byte[] b, int off, int len) {
        out().putBytes(b, off, len);
    }

    @Override
    public byte[] blob(byte[] v) {
        out().putBlob(v, 0, v.length);
        return v;
    }

    @Override
    public Throwable failure(Throwable t) {
        EventBuffer b = out();
        b.putVarLong(t == null ? 0 : 1);
        if (t != null) {
            Exceptions.write(t, b);
        }
        return t;
    }

    /** What was written of the event, and of a run written before it, is dropped: no partial event reaches the stream. */
    @Override
    void abandon() {
        log.dropUncommitted();
        open = false;
        prepared = false;
        inRun = false;
        headerPending = false;
    }

    @Override
    public RuntimeException threw(Throwable t) {
        if (open) {
            if (inRun) {
                inRun = false;
                run--;
            } else if (!headerPending) {
                log.buffer().truncate(headerMark);
            }
            headerPending = false;
            writeHeader(true);
            Exceptions.write(t, log.buffer());
        }
        throw sneaky(t);
    }

    @Override
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
            inRun = false; // counted in the run
        } else {
            out().closeLength(lengthMark);
            commit();
            endAloneIfMarked();
        }
        ctx.depth = 0;
    }
}
