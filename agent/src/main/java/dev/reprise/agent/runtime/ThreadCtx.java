package dev.reprise.agent.runtime;

import dev.reprise.core.log.EventInput;
import dev.reprise.core.log.ThreadLog;

/** Per-thread state: the thread's path, its event stream, and the interception depth. */
public final class ThreadCtx {
    /** Shared by every thread that is not recorded: its depth never reaches zero. */
    static final ThreadCtx UNRECORDED = new ThreadCtx(null, null, null);

    final String path;
    /** Non-zero while an intercepted call (or Reprise's own work) runs on this thread. */
    int depth;
    /** Number of threads this thread has started: names the next child's path. */
    int children;
    long eventNo;
    /** Objects of each class this thread gave an identity hash: the next one's value derives from it. */
    final ClassCounters hashCounters = new ClassCounters();
    final ThreadLog log;
    final EventInput in;
    final Ev ev;
    final Thread thread;
    /** Under {@code --chaos}: this thread's source of delays; null otherwise. */
    java.util.SplittableRandom chaos;

    ThreadCtx(String path, ThreadLog log, EventInput in) {
        this.path = path;
        this.log = log;
        this.in = in;
        this.ev = new Ev(this);
        this.thread = path == null ? null : Thread.currentThread();
        this.depth = path == null ? 1 : 0;
    }

    public String path() {
        return path;
    }

    public long eventNo() {
        return eventNo;
    }
}
