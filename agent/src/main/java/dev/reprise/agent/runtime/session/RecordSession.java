package dev.reprise.agent.runtime.session;

import java.io.IOException;
import java.lang.invoke.VarHandle;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import dev.reprise.agent.runtime.contexts.Cleanups;
import dev.reprise.agent.runtime.events.Divergence;
import dev.reprise.agent.runtime.events.RecordEv;
import dev.reprise.agent.runtime.events.Session;
import dev.reprise.agent.runtime.events.ThreadCtx;
import dev.reprise.agent.runtime.jdk.OwnThreads;
import dev.reprise.agent.runtime.ordering.RecordOrder;
import dev.reprise.agent.runtime.ordering.Threads;
import dev.reprise.core.config.AgentConfig;
import dev.reprise.core.config.Order;
import dev.reprise.core.log.EventSink;
import dev.reprise.core.log.LogWriter;
import dev.reprise.core.recording.RecordingWriter;

/** A recording: every recorded thread's events go to the sink, and the exit writes how the run ended. */
final class RecordSession extends Session {
    /** Where the side files go. */
    private final RecordingWriter output;
    private final EventSink sink;

    private RecordSession(AgentConfig config, RecordingWriter output, EventSink sink) {
        super(config);
        this.output = output;
        this.sink = sink;
    }

    static RecordSession start(AgentConfig config) throws IOException {
        RecordingWriter output = RecordingWriter.of(config.dir());
        LogWriter writer = new LogWriter(output, new LogWriter.FailureListener() {
            @Override
            public void failed(IOException e) {
                Divergence.message("cannot write the recording (" + e.getMessage() + "): it is cut here;"
                        + " the program goes on unrecorded, and its replay will end at this point");
            }
        }, OwnThreads.GROUP);
        writer.start();
        RunInfo.writeJvm(output);
        RecorderWatch.start(config.recorder());
        return new RecordSession(config, output, writer);
    }

    @Override
    public void activate() throws IOException {
        RunInfo.writeOps(output);
        super.activate();
    }

    @Override
    public boolean replaying() {
        return false;
    }

    @Override
    protected void bind(ThreadCtx ctx, String path) {
        ctx.ev = new RecordEv(ctx, sink.open(path), config.logRelaxed());
    }

    @Override
    protected ThreadCtx openInit(String path, String className, boolean ordered) {
        ThreadCtx ctx = new ThreadCtx(path, ordered ? Threads.takeInitIndex() : -1, className, !ordered);
        bind(ctx, path);
        return ctx;
    }

    @Override
    public ThreadCtx openCleanups(String path) {
        ThreadCtx ctx = new ThreadCtx(path, Threads.takeInitIndex(), null, false);
        bind(ctx, path);
        ((RecordEv) ctx.ev).writeIndexFirst();
        return track(ctx);
    }

    /** Also a stream that only counted relaxed events: the end writes their count, which its replay must take. */
    @Override
    protected boolean initHoldsEvents(ThreadCtx ctx) {
        return ctx.eventNo != 0 || ((RecordEv) ctx.ev).counting();
    }

    /** A stream that holds no event is forgotten, and its index given back: most initializers log nothing. */
    @Override
    public void closeClassInit(ThreadCtx ctx) {
        if (ctx.eventNo != 0) {
            return;
        }
        forget(ctx);
        sink.discard(((RecordEv) ctx.ev).log);
        if (!ctx.jdkInit) {
            Threads.releaseInitIndex(ctx.index);
        }
    }

    /**
     * Flushes the streams and writes how the run ended: each stream's event count, under RTO the
     * relaxed events each thread counted after its last written one, and under TO the turns the
     * exit cut.
     */
    @Override
    public void finish() {
        Cleanups.close();
        try {
            boolean totalOrder = config.order() == Order.TO;
            if (totalOrder) {
                RecordOrder.freeze();
            }
            try {
                sink.close();
            } catch (IOException e) {
                // Reported as it happened; the streams end where it did, so no counts are written.
                RunInfo.writeFailedEnd(output, e);
                return;
            }
            Map<String, Long> counts = new HashMap<>();
            Map<String, Long> tails = new HashMap<>();
            List<ThreadCtx> threads = threads();
            for (ThreadCtx ctx : threads) {
                RecordEv ev = (RecordEv) ctx.ev;
                long events = ev.log.flushedEvents();
                if (events > 0 || ctx.initializing == null) {
                    counts.put(ctx.path, events);
                }
                // A thread still running counts on in its own plain field: this read may be stale,
                // but a count it shows is one the thread reached, so replay may take that many.
                // Only if it counts from the stream's last event: a thread that wrote an event past
                // the flush, which the stream drops, counts anew from that one. The fence keeps
                // this read before the check, which then sees any commit the count followed.
                long tail = ev.run;
                VarHandle.loadLoadFence();
                if (tail > 0 && !totalOrder && !ev.log.committedSinceClose()) {
                    tails.put(ctx.path, tail);
                }
            }
            RunInfo.writeEnd(output, counts, totalOrder ? RecordOrder.cutTurns(threads) : new long[0], tails);
        } catch (IOException e) {
            Divergence.message("could not write the recording: " + e.getMessage());
        }
    }
}
