package dev.reprise.agent.runtime;

import dev.reprise.core.config.AgentConfig;
import dev.reprise.core.config.Mode;
import dev.reprise.core.config.Order;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;

import dev.reprise.core.log.EventInput;
import dev.reprise.core.log.LogWriter;
import dev.reprise.core.log.RecordingCorruptException;
import dev.reprise.core.recording.EndOfRun;
import dev.reprise.core.recording.RecordingReader;
import dev.reprise.core.recording.RecordingWriter;

/** The recording or replay this JVM takes part in: one per JVM, created in premain. */
public final class Session {
    private static volatile Session current;
    private static final Op INIT_END = Op.named("class.init.end");

    private final AgentConfig config;
    /** Recording: where the streams and side files go; else null. */
    private final RecordingWriter output;
    private final LogWriter writer;
    /** Replay: the recording replayed; else null. */
    private final RecordingReader input;
    /**
     * Replay: the threads the recording has streams for, listed once. Most class initializers have
     * none, and asking the disk for each took a jython replay 48 ms (BENCHMARKS.md, the run at 58fb705).
     */
    private final Set<String> recordedStreams;
    private final List<ThreadCtx> threads = new ArrayList<>();
    /**
     * Application class initializers opened, per class name. Several loaders may define one
     * name: each definition's initializer gets a stream, numbered in the order they run. Guarded
     * by {@link #threads}.
     */
    private final Map<String, Integer> initializers = new HashMap<>();

    /** Replay of a recording that did not complete: how it ended ({@link RecordingEnd}); else null. */
    private final RunInfo.Ending ending;

    private Session(AgentConfig config, RecordingWriter output, LogWriter writer, RecordingReader input,
                    Set<String> recordedStreams, RunInfo.Ending ending) {
        this.config = config;
        this.output = output;
        this.writer = writer;
        this.input = input;
        this.recordedStreams = recordedStreams;
        this.ending = ending;
    }

    /** Starts the session: from here on, the main thread's intercepted calls are events. */
    public static Session start(AgentConfig config, Thread main) throws IOException {
        JdkFiles.init(System.getProperty("java.home"));
        RecordingWriter output = null;
        LogWriter writer = null;
        if (config.mode() == Mode.RECORD) {
            output = RecordingWriter.of(config.dir());
            writer = new LogWriter(output, new LogWriter.FailureListener() {
                @Override
                public void failed(IOException e) {
                    Divergence.message("cannot write the recording (" + e.getMessage() + "): it is cut here;"
                            + " the program goes on unrecorded, and its replay will end at this point");
                }
            });
            writer.start();
            RunInfo.writeJvm(output);
            RecorderWatch.start(config.recorder());
        }
        // The chaos generator's class, loaded now: the main thread's context, which creates one,
        // is made inside the first transformation, and a class loaded there is not transformed.
        SplittableRandom.class.getName();
        Session s;
        if (writer != null) {
            s = new Session(config, output, writer, null, null, null);
        } else {
            // How the recorded run ended comes from the recording itself; only its exit status,
            // which the recorder alone saw, comes from the manifest through the configuration.
            RecordingReader input = RecordingReader.of(config.dir());
            EndOfRun end = input.endOfRun();
            s = new Session(config, null, null, input, input.threads(),
                    EndOfRun.completed(end, config.recordedStatus()) ? null : RunInfo.Ending.of(end));
            if (config.order() == Order.TO && end != null) {
                SyncOrder.skipCutTurns(end.cutTurns());
            }
        }
        Debuggee.configure(config.stopAt());
        current = s;
        Threads.registerMain(main);
        if (s.ending != null) {
            RecordingEnd.watch(s, s.ending, config.recordedStatus());
        }
        return s;
    }

    /** Switches interception on; everything it needs, the operation catalogue included, is in place. */
    public void activate() throws IOException {
        if (writer != null) {
            RunInfo.writeOps(output);
        } else {
            StallWatch.start();
        }
        Rt.activate();
    }

    public static Session current() {
        return current;
    }

    public AgentConfig config() {
        return config;
    }

    public boolean replaying() {
        return config.mode() == Mode.REPLAY;
    }

    ThreadCtx openThread(String path, int index) {
        ThreadCtx ctx = writer != null
                ? new ThreadCtx(path, index, writer.open(path), null)
                : new ThreadCtx(path, index, null, new EventInput(input.streamFile(path)));
        ctx.chaos = config.chaosSeed() == null ? null : new Chaos(config.chaosSeed() ^ path.hashCode());
        synchronized (threads) {
            threads.add(ctx);
        }
        return ctx;
    }

    /**
     * The context of a class's static initializer ({@link ClassInits}); for a JDK class, null on
     * replay if the recording has no events for it. Its stream is named for the class. An
     * application class's ({@code ordered}) has an index, and a second definition of its name a
     * stream of its own; a JDK class's has neither: only the boot and platform loaders define
     * JDK classes, and their initializers are quiet.
     */
    ThreadCtx openClassInit(String className, boolean ordered) {
        String path = "init-" + className.replace('/', '.');
        if (ordered) {
            int n;
            synchronized (threads) {
                Integer before = initializers.get(className);
                n = before == null ? 1 : before + 1;
                initializers.put(className, n);
            }
            if (n > 1) {
                path += "~" + n;
            }
        }
        ThreadCtx ctx;
        if (writer != null) {
            ctx = new ThreadCtx(path, ordered ? Threads.takeInitIndex() : -1, writer.open(path), null, className, !ordered);
        } else {
            java.nio.file.Path file = input.streamFile(path);
            boolean recorded = recordedStreams.contains(path);
            if (!ordered) {
                if (!recorded) {
                    return null;
                }
                ctx = new ThreadCtx(path, -1, null, new EventInput(file), className, true);
            } else {
                // Without events recorded, the context still stands in for the recording's: any
                // event is a divergence, and initializers nested in this one open their own streams.
                EventInput in = new EventInput(file);
                int index = recorded ? initIndex(in, file) : -1;
                ctx = new ThreadCtx(path, index, null, in, className, false);
                ctx.eventNo = index < 0 ? 0 : 1;
            }
        }
        if (ordered && config.chaosSeed() != null) {
            ctx.chaos = new Chaos(config.chaosSeed() ^ path.hashCode());
        }
        synchronized (threads) {
            threads.add(ctx);
        }
        return ctx;
    }

    /** Replay: the index an application class initializer's stream begins with, or -1 for a stream without events. */
    private int initIndex(EventInput in, java.nio.file.Path file) {
        long index;
        try {
            if (in.atEnd()) {
                return -1;
            }
            index = Ev.readInitIndex(in);
        } catch (EventInput.EndOfStream e) {
            index = -1;
        } catch (RecordingCorruptException e) {
            throw corrupt(e);
        }
        if (index < 0 || index > Integer.MAX_VALUE || !Threads.initIndexRead((int) index)) {
            throw corrupt(new RecordingCorruptException(file, 0,
                    "a class initializer's stream does not begin with a valid index"));
        }
        return (int) index;
    }

    /**
     * As an application class's initializer ends, in its context: a stream that holds events ends
     * with {@code class.init.end}. Replay reads it there, so an initializer that did less than
     * the recording is reported, and one whose stream ends without it was cut off by the exit
     * while it ran ({@link #endOfRecording}).
     */
    void endClassInit(ThreadCtx ctx) {
        // Recording, an initializer that only counted relaxed events logged something: the end
        // writes their count, which its replay must take.
        if (writer != null ? ctx.eventNo != 0 || ctx.ev.counting() : ctx.index >= 0) {
            ctx.depth = 1; // claimed, as every event is: what chaos does before it is not the program's
            Ev.begin(ctx, INIT_END, 0, 0).end();
        }
    }

    /**
     * After the initializer of {@code ctx} ended, in the thread's own context. Recording, a
     * stream that holds no event is forgotten, and its index given back: most initializers log
     * nothing. Replay forgets an application class's.
     */
    void closeClassInit(ThreadCtx ctx) {
        if (writer != null ? ctx.eventNo != 0 : ctx.jdkInit) {
            return;
        }
        synchronized (threads) {
            for (int i = threads.size() - 1; i >= 0; i--) {
                if (threads.get(i) == ctx) {
                    threads.remove(i);
                    break;
                }
            }
        }
        if (writer != null) {
            writer.discard(ctx.log);
            if (!ctx.jdkInit) {
                Threads.releaseInitIndex(ctx.index);
            }
        }
    }

    /**
     * Replay: the program must start as it was recorded, same main class and arguments. Called
     * once the recorded system properties are installed; {@code launched} is this JVM's own
     * {@code sun.java.command}. Checked before the program runs, so an edited command stops the
     * replay at its start rather than wherever its effect first shows.
     */
    public void checkLaunch(String launched) {
        Rt.suppress();
        String recorded;
        try {
            recorded = System.getProperty("sun.java.command");
        } finally {
            Rt.unsuppress();
        }
        if (replaying() && !java.util.Objects.equals(recorded, launched)) {
            Divergence.launch(Rt.current(), recorded, launched);
        }
    }

    /** Replay asked for an event past the end of this thread's stream. */
    void endOfRecording(ThreadCtx ctx, int op, int site) {
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
            SyncOrder.cutOff(ctx);
        }
        Waiter.awaitExit(ctx);
    }

    /**
     * Replay: the current thread halts the JVM, as the recorded run did. In a recording cut by
     * that halt, the thread waits as at the end of its stream while the others replay as far as
     * theirs go; the recording's end ends the replay ({@link RecordingEnd}).
     */
    public void halting() {
        if (ending != null) {
            ThreadCtx ctx = Rt.current();
            ctx.awaitingExit = true;
            Waiter.awaitExit(ctx);
        }
    }

    /** A damaged recording found during replay: report it like the command does, exit status 4. */
    RuntimeException corrupt(RecordingCorruptException e) {
        Divergence.message("recording unreadable: " + e.getMessage());
        Runtime.getRuntime().halt(Divergence.EXIT_CORRUPT);
        return e;
    }

    /** Every recorded thread's context so far. */
    List<ThreadCtx> threads() {
        synchronized (threads) {
            return new ArrayList<>(threads);
        }
    }

    /** At JVM exit: records flush their streams; replays check no recorded event was left unused. */
    public void finish() {
        if (writer != null) {
            try {
                boolean totalOrder = config.order() == Order.TO;
                if (totalOrder) {
                    SyncOrder.freeze();
                }
                try {
                    writer.close();
                } catch (IOException e) {
                    // Reported as it happened; the streams end where it did, so no counts are written.
                    RunInfo.writeFailedEnd(output, e);
                    return;
                }
                java.util.Map<String, Long> counts = new java.util.HashMap<>();
                synchronized (threads) {
                    for (ThreadCtx ctx : threads) {
                        long events = ctx.log.flushedEvents();
                        if (events > 0 || ctx.initializing == null) {
                            counts.put(ctx.path, events);
                        }
                    }
                }
                RunInfo.writeEnd(output, counts, totalOrder ? SyncOrder.cutTurns(threads()) : new long[0]);
            } catch (IOException e) {
                Divergence.message("could not write the recording: " + e.getMessage());
            }
            return;
        }
        Debuggee.exiting();
        if (ending != null) {
            RecordingEnd.atExit(this, ending, config.recordedStatus());
        }
        List<ThreadCtx> all;
        synchronized (threads) {
            all = new ArrayList<>(threads);
        }
        Thread self = Thread.currentThread();
        for (ThreadCtx ctx : all) {
            boolean done = ctx.thread == self || ctx.thread == null || !ctx.thread.isAlive();
            if (done && !ctx.in.atEnd()) {
                Divergence.leftOver(ctx);
            }
        }
    }

}
