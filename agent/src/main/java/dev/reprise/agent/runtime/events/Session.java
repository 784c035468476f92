package dev.reprise.agent.runtime.events;

import dev.reprise.core.config.AgentConfig;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The recording or replay this JVM takes part in: one per JVM, created in premain. Its role is its
 * type, {@code RecordSession} or {@code ReplaySession}: a JVM loads one of them, and what differs
 * between the roles (where events go or come from, how a thread's context is made, what the exit
 * does) is theirs; what both do (naming streams, tracking the contexts) is here.
 */
public abstract class Session {
    private static volatile Session current;
    private static final Op INIT_END = Op.named("class.init.end");

    public final AgentConfig config;
    private final List<ThreadCtx> threads = new ArrayList<>();
    /**
     * Application class initializers opened, per class name. Several loaders may define one
     * name: each definition's initializer gets a stream, numbered in the order they run. Guarded
     * by {@link #threads}.
     */
    private final Map<String, Integer> initializers = new HashMap<>();

    public Session(AgentConfig config) {
        this.config = config;
    }

    /**
     * Makes {@code s} this JVM's session, once, at start-up ({@code session/Sessions}); set
     * before the main thread is registered, so every recorded thread's first call finds it.
     */
    public static void install(Session s) {
        current = s;
    }

    /** Once the session is current and main registered. */
    public void started() {
    }

    /** Switches interception on; everything it needs, the operation catalogue included, is in place. */
    public void activate() throws IOException {
        Rt.activate();
    }

    public static Session current() {
        return current;
    }

    public AgentConfig config() {
        return config;
    }

    public abstract boolean replaying();

    /** The context of a recorded thread, its stream named {@code path}; {@code index} names it in ordering edges. */
    public final ThreadCtx openThread(String path, int index) {
        ThreadCtx ctx = new ThreadCtx(path, index, null, false);
        bind(ctx, path);
        return track(ctx);
    }

    /** Gives a new context its events, of this session's role, on stream {@code path}. */
    protected abstract void bind(ThreadCtx ctx, String path);

    protected final ThreadCtx track(ThreadCtx ctx) {
        synchronized (threads) {
            threads.add(ctx);
        }
        return ctx;
    }

    /**
     * The context of a class's static initializer ({@code ClassInits}); for a JDK class, live on
     * replay if the recording has no events for it. Its stream is named for the class. An
     * application class's ({@code ordered}) has an index, and a second definition of its name a
     * stream of its own; a JDK class's has neither: only the boot and platform loaders define
     * JDK classes, and their initializers are quiet.
     */
    public final ThreadCtx openClassInit(String className, boolean ordered) {
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
        return track(openInit(path, className, ordered));
    }

    /** A class initializer's context on stream {@code path}, as {@link #openClassInit} describes, not yet tracked. */
    protected abstract ThreadCtx openInit(String path, String className, boolean ordered);

    /**
     * The context of a stream of cleanups ({@code Cleanups}), named {@code path}, for the current
     * thread: recording, a new stream that begins with an index taken as an application class
     * initializer's; replaying, the recorded one, its index read.
     */
    public abstract ThreadCtx openCleanups(String path);

    /**
     * As an application class's initializer ends, in its context: a stream that holds events ends
     * with {@code class.init.end}. Replay reads it there, so an initializer that did less than
     * the recording is reported, and one whose stream ends without it was cut off by the exit
     * while it ran ({@code ReplaySession.endOfRecording}).
     */
    public final void endClassInit(ThreadCtx ctx) {
        if (initHoldsEvents(ctx)) {
            ctx.depth = 1; // claimed, as every event is: what chaos does before it is not the program's
            Ev.begin(ctx, INIT_END, 0, 0).end();
        }
    }

    /** Whether the stream of the initializer of {@code ctx}, ending, holds events, and so ends with {@code class.init.end}. */
    protected abstract boolean initHoldsEvents(ThreadCtx ctx);

    /** After the initializer of {@code ctx} ended, in the thread's own context: forgets what need not be kept. */
    public abstract void closeClassInit(ThreadCtx ctx);

    /** Stops tracking {@code ctx}; searched from the newest, which it usually is. */
    protected final void forget(ThreadCtx ctx) {
        synchronized (threads) {
            for (int i = threads.size() - 1; i >= 0; i--) {
                if (threads.get(i) == ctx) {
                    threads.remove(i);
                    break;
                }
            }
        }
    }

    /**
     * Replay: the program must start as it was recorded, same main class and arguments. Called
     * once the recorded system properties are installed; {@code launched} is this JVM's own
     * {@code sun.java.command}.
     */
    public void checkLaunch(String launched) {
    }

    /** The current thread halts the JVM. */
    public void halting() {
    }

    /** Every recorded thread's context so far. */
    public final List<ThreadCtx> threads() {
        synchronized (threads) {
            return new ArrayList<>(threads);
        }
    }

    /** At JVM exit: a recording flushes its streams; a replay checks no recorded event was left unused. */
    public abstract void finish();
}
