package dev.reprise.agent.runtime.session;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;

import dev.reprise.agent.runtime.contexts.Cleanups;
import dev.reprise.agent.runtime.events.Chaos;
import dev.reprise.agent.runtime.events.Debuggee;
import dev.reprise.agent.runtime.events.Divergence;
import dev.reprise.agent.runtime.events.ReplayEv;
import dev.reprise.agent.runtime.events.Rt;
import dev.reprise.agent.runtime.events.Session;
import dev.reprise.agent.runtime.events.StreamEnds;
import dev.reprise.agent.runtime.events.ThreadCtx;
import dev.reprise.agent.runtime.jdk.ThreadIdCounter;
import dev.reprise.agent.runtime.ordering.CutTails;
import dev.reprise.agent.runtime.ordering.ReplayOrder;
import dev.reprise.agent.runtime.ordering.Threads;
import dev.reprise.agent.runtime.ordering.Waiter;
import dev.reprise.core.config.AgentConfig;
import dev.reprise.core.config.Order;
import dev.reprise.core.log.EventInput;
import dev.reprise.core.log.EventSource;
import dev.reprise.core.log.RecordingCorruptException;
import dev.reprise.core.recording.EndOfRun;
import dev.reprise.core.recording.RecordingReader;

/**
 * A replay: every recorded thread takes its events from the source, chaos shakes their timing
 * if asked, and a recording that did not complete is ended where it ends ({@link RecordingEnd}).
 */
final class ReplaySession extends Session implements StreamEnds {
    private final EventSource source;
    /**
     * The streams the source holds, listed once. Most class initializers have none, and asking
     * the disk for each took a jython replay 48 ms (BENCHMARKS.md, the run at 58fb705).
     */
    private final Set<String> recordedStreams;
    /** Of a recording that did not complete: how it ended ({@link RecordingEnd}); else null. */
    private final RunInfo.Ending ending;
    /**
     * Per stream, the relaxed events its thread counted after its last written event before the
     * exit cut it off ({@code EndOfRun.relaxedTails}); each is taken once, as the stream ends.
     */
    private final Map<String, Long> relaxedTails;

    private ReplaySession(AgentConfig config, EventSource source, RunInfo.Ending ending, Map<String, Long> relaxedTails) {
        super(config);
        this.source = source;
        this.recordedStreams = source.streamNames();
        this.ending = ending;
        this.relaxedTails = new ConcurrentHashMap<>(relaxedTails);
    }

    static ReplaySession start(AgentConfig config) {
        ThreadIdCounter.skipRecordedIds();
        // The chaos generator's class, loaded now: the main thread's context, which creates one,
        // is made inside the first transformation, and a class loaded there is not transformed.
        SplittableRandom.class.getName();
        // How the recorded run ended comes from the recording itself; only its exit status,
        // which the recorder alone saw, comes from the manifest through the configuration.
        RecordingReader input = RecordingReader.of(config.dir());
        EndOfRun end = input.endOfRun();
        ReplaySession s = new ReplaySession(config, input,
                EndOfRun.completed(end, config.recordedStatus()) ? null : RunInfo.Ending.of(end, config.recordedStatus()),
                end == null ? Map.of() : end.relaxedTails());
        if (config.order() == Order.TO && end != null) {
            ReplayOrder.skipCutTurns(end.cutTurns());
        }
        if (end != null) {
            PolledReferences.expect(end.polledReferences());
        }
        return s;
    }

    @Override
    public void started() {
        if (ending != null) {
            RecordingEnd.watch(this, ending, config.recordedStatus());
        }
    }

    @Override
    public void activate() throws IOException {
        StallWatch.start();
        super.activate();
        Cleanups.startDrivers(recordedStreams);
    }

    @Override
    public boolean replaying() {
        return true;
    }

    @Override
    protected void bind(ThreadCtx ctx, String path) {
        bind(ctx, path, source.open(path), true);
    }

    /** {@code chaos}: whether chaos may delay this context's events (not a JDK class's quiet initializer). */
    private void bind(ThreadCtx ctx, String path, EventInput in, boolean chaos) {
        ctx.ev = new ReplayEv(ctx, in, this);
        ctx.stopBefore = Debuggee.stopBefore(path);
        ctx.chaos = !chaos || config.chaosSeed() == null ? null : new Chaos(config.chaosSeed() ^ path.hashCode());
    }

    @Override
    protected ThreadCtx openInit(String path, String className, boolean ordered) {
        boolean recorded = recordedStreams.contains(path);
        if (!ordered) {
            ThreadCtx ctx = new ThreadCtx(path, -1, className, true);
            bind(ctx, path, source.open(path), false);
            if (!recorded) {
                ctx.depth = ctx.baseDepth = 1;
            }
            return ctx;
        }
        // Without events recorded, the context still stands in for the recording's: any
        // event is a divergence, and initializers nested in this one open their own streams.
        EventInput in = source.open(path);
        int index = recorded ? initIndex(in) : -1;
        ThreadCtx ctx = new ThreadCtx(path, index, className, false);
        bind(ctx, path, in, true);
        ctx.eventNo = index < 0 ? 0 : 1;
        return ctx;
    }

    @Override
    public ThreadCtx openCleanups(String path) {
        EventInput in = source.open(path);
        ThreadCtx ctx = new ThreadCtx(path, initIndex(in), null, false);
        if (ctx.index < 0) {
            throw corrupt(new RecordingCorruptException(in.file(), 0, "a stream of cleanups holds no event"));
        }
        bind(ctx, path, in, true);
        ctx.eventNo = 1;
        return track(ctx);
    }

    /** The index an application class initializer's stream, or a stream of cleanups, begins with; -1 for a stream without events. */
    private int initIndex(EventInput in) {
        long index;
        try {
            if (in.atEnd()) {
                return -1;
            }
            index = ReplayEv.readInitIndex(in);
        } catch (EventInput.EndOfStream e) {
            index = -1;
        } catch (RecordingCorruptException e) {
            throw corrupt(e);
        }
        if (index < 0 || index > Integer.MAX_VALUE || !Threads.initIndexRead((int) index)) {
            throw corrupt(new RecordingCorruptException(in.file(), 0,
                    "a class initializer's or cleanups' stream does not begin with a valid index"));
        }
        return (int) index;
    }

    @Override
    protected boolean initHoldsEvents(ThreadCtx ctx) {
        return ctx.index >= 0;
    }

    /** An application class's context is forgotten; a JDK class's is kept, its stream read to the end by {@link #finish}. */
    @Override
    public void closeClassInit(ThreadCtx ctx) {
        if (!ctx.jdkInit || ctx.baseDepth != 0) {
            forget(ctx);
        }
    }

    /**
     * Checked before the program runs, so an edited command stops the replay at its start rather
     * than wherever its effect first shows.
     */
    @Override
    public void checkLaunch(String launched) {
        Rt.suppress();
        String recorded;
        try {
            recorded = System.getProperty("sun.java.command");
        } finally {
            Rt.unsuppress();
        }
        if (!Objects.equals(recorded, launched)) {
            Divergence.launch(Rt.current(), recorded, launched);
        }
    }

    /**
     * Asked for an event past the end of this thread's stream, one that a relaxed event of the
     * recording could be if {@code relaxable}: returns how many relaxed events the thread takes
     * from here on, at least one: first those the recorded thread counted after its last written
     * event, then those another thread's edge asks for ({@link CutTails}); if none is asked for,
     * never returns ({@link #endOfRecording}). The first let a thread cut off inside a
     * synchronized block reach its exit from it, as the recorded thread did: another thread that
     * waits for the monitor waits for no event, and could not ask.
     */
    @Override
    public long cutTail(ThreadCtx ctx, int op, int site, boolean relaxable) {
        // Without an index (a JDK class's initializer, or an application one that logged no
        // event when recorded) no edge can name the context's events: none is asked for.
        if (!relaxable || config.order() != Order.RTO || ctx.waitMonitor != null || ctx.index < 0) {
            endOfRecording(ctx, op, site);
        }
        Long counted = relaxedTails.remove(ctx.path);
        if (counted != null) {
            return counted;
        }
        ctx.awaitingExit = true;
        long asked = CutTails.await(ctx);
        ctx.awaitingExit = false;
        return asked - ctx.syncCount;
    }

    /** Asked for an event past the end of this thread's stream, which it cannot take. */
    @Override
    public void endOfRecording(ThreadCtx ctx, int op, int site) {
        if (ctx.jdkInit || (ctx.initializing != null && ctx.index < 0)) {
            Divergence.initializerLonger(ctx, op, site);
        }
        // The recorded thread never ended: the JVM exited, from another thread, while it ran.
        // It waits here for that exit, which the replay reaches in its recorded order, or, in a
        // recording that did not complete, for the end of what the other threads recorded. There
        // the streams end at different moments, and an event another thread ordered after one
        // of this thread's lost events may follow, through it, events not replayed yet: such an
        // event is past the recording's end too, so this thread's lost events stay unreplayed
        // (RecordingEnd ends the replay once only such waits remain).
        ctx.awaitingExit = true;
        if (ending == null) {
            ReplayOrder.cutOff(ctx);
        }
        Waiter.awaitExit(ctx);
    }

    /**
     * The current thread halts the JVM, as the recorded run did. In a recording cut by that halt,
     * the thread waits as at the end of its stream while the others replay as far as theirs go;
     * the recording's end ends the replay ({@link RecordingEnd}).
     */
    @Override
    public void halting() {
        if (ending != null) {
            ThreadCtx ctx = Rt.current();
            ctx.awaitingExit = true;
            Waiter.awaitExit(ctx);
        }
    }

    /** A damaged recording found during replay: reported as the command reports one, exit status 4. */
    @Override
    public RuntimeException corrupt(RecordingCorruptException e) {
        Divergence.message("recording unreadable: " + e.getMessage());
        Runtime.getRuntime().halt(Divergence.EXIT_CORRUPT);
        return e;
    }

    /** Checks that no thread that ended left recorded events unused. */
    @Override
    public void finish() {
        Debuggee.exiting();
        if (ending != null) {
            RecordingEnd.atExit(this, ending, config.recordedStatus());
        }
        Cleanups.drain();
        Thread self = Thread.currentThread();
        List<ThreadCtx> all = threads();
        for (ThreadCtx ctx : all) {
            boolean done = ctx.thread == self || ctx.thread == null || !ctx.thread.isAlive();
            if (done && !((ReplayEv) ctx.ev).in.atEnd()) {
                Divergence.leftOver(ctx);
            }
        }
    }
}
