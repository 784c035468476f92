package dev.reprise.core.log;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The event stream of one recorded thread: the owner encodes events into {@link #buffer()} and
 * calls {@link #commit()} after each; full buffers go to the {@link LogWriter} as chunks.
 *
 * <p>Only the owner writes the buffer. {@link #committed} is published with release semantics
 * after each event so that a final flush from another thread (at JVM exit) sees every byte up
 * to it; bytes after it belong to an event still being written and are never flushed. Handing a
 * chunk over and the final flush both run under this object's monitor, so a chunk is written
 * exactly once.
 */
public final class ThreadLog {
    private static final int CHUNK_TARGET = 64 * 1024;
    private static final VarHandle COMMITTED;

    static {
        try {
            COMMITTED = MethodHandles.lookup().findVarHandle(ThreadLog.class, "committed", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final String stream;
    private final LogWriter writer;
    private EventBuffer buffer = new EventBuffer(CHUNK_TARGET + 1024);
    @SuppressWarnings("unused") // accessed through COMMITTED
    private int committed;
    private long events;
    private boolean closed;

    ThreadLog(String stream, LogWriter writer) {
        this.stream = stream;
        this.writer = writer;
    }

    public EventBuffer buffer() {
        return buffer;
    }

    /** Number of events committed so far. */
    public long events() {
        return events;
    }

    /** Ends the current event; hands the buffer over as a chunk once it is large enough. */
    public void commit() {
        events++;
        int pos = buffer.position();
        COMMITTED.setRelease(this, pos);
        if (pos >= CHUNK_TARGET) {
            handOver();
        }
    }

    private synchronized void handOver() {
        if (closed) {
            return;
        }
        int pos = buffer.position();
        writer.submit(stream, buffer.array(), pos);
        buffer = new EventBuffer(CHUNK_TARGET + 1024);
        COMMITTED.setRelease(this, 0);
    }

    /** Writes every committed event; later events of this thread are dropped. Any thread may call. */
    synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        int pos = (int) COMMITTED.getAcquire(this);
        if (pos > 0) {
            writer.submit(stream, buffer.array(), pos);
        }
    }
}
