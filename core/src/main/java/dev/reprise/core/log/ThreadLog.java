package dev.reprise.core.log;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The event stream of one recorded thread: the owner encodes events into {@link #buffer()} and
 * calls {@link #commit()} after each; full buffers go to the {@link LogWriter} as chunks.
 *
 * <p>Only the owner writes the buffer. {@link #committed} is published with release semantics
 * after each event so that a flush from another thread (the writer's timer, {@link #flushCommitted},
 * and the final one at JVM exit) sees every byte up to it; bytes after it belong to an event still
 * being written and are never flushed, and the owner never writes below it again. It packs the
 * buffer's event count (high 32 bits) with its end offset (low 32 bits), so a flush knows exactly
 * how many events it wrote even while the owner keeps recording: the manifest's counts must match
 * the streams for replay to tell a truncated file from a complete one. Handing a chunk over and
 * every flush run under this object's monitor and hand over only the bytes after the last one
 * handed over ({@link #flushedPos}), in the order they were written, so each byte is written
 * exactly once and in place.
 */
public final class ThreadLog {
    private static final int CHUNK_TARGET = 64 * 1024;
    /** A full buffer: a chunk, plus room for the event that crosses the target. */
    private static final int FULL = CHUNK_TARGET + 1024;
    /**
     * A stream's first buffer, which doubles up to {@link #FULL} as it fills. Every stream is kept
     * until exit, and most class initializers' streams hold a few events: at full size their
     * buffers were 6 MB of a recording of fop's heap, and its peak RSS with them.
     */
    private static final int FIRST = FULL >> 5;
    private static final VarHandle COMMITTED;

    static {
        try {
            COMMITTED = MethodHandles.lookup().findVarHandle(ThreadLog.class, "committed", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final String stream;
    private final LogWriter writer;
    /**
     * Allocated at the first event: many streams (a class initializer's) never get one. A flush
     * from another thread reads it only after a committed event, whose release publishes it, and
     * reads its array as published ({@link EventBuffer#published}), since it may grow meanwhile.
     */
    private EventBuffer buffer;
    @SuppressWarnings("unused") // accessed through COMMITTED
    private long committed;
    /** Events in {@link #buffer}; only the owner reads or writes it. */
    private int buffered;
    /** Events in chunks already handed over. */
    private long handedOver;
    /**
     * Bytes at the start of {@link #buffer} that a timed flush already handed over, and the
     * events they hold; the owner's hand-over sends only the rest. Guarded by this object.
     */
    private int flushedPos;
    private int flushedCount;
    private long flushed = -1;
    private boolean closed;
    /** {@link #committed} as {@link #close} found it. */
    private long committedAtClose;

    ThreadLog(String stream, LogWriter writer) {
        this.stream = stream;
        this.writer = writer;
    }

    public EventBuffer buffer() {
        if (buffer == null) {
            buffer = new EventBuffer(FIRST);
        }
        return buffer;
    }

    /** Number of events written to the stream: known once the log is closed, else the events handed over so far. */
    public synchronized long flushedEvents() {
        return closed ? flushed : handedOver;
    }

    /** Drops what was written since the last committed event: an event its writer could not finish. */
    public void dropUncommitted() {
        if (buffer != null) {
            buffer.truncate((int) (long) COMMITTED.get(this)); // the owner's own last store: its low half is the position
        }
    }

    /** Ends the current event; hands the buffer over as a chunk once it is large enough. */
    public void commit() {
        buffered++;
        int pos = buffer.position();
        COMMITTED.setRelease(this, ((long) buffered << 32) | pos);
        // Whatever the owner stores after this commit (the count of relaxed events it makes
        // next) becomes visible after it: see committedSinceClose.
        VarHandle.storeStoreFence();
        if (pos >= CHUNK_TARGET) {
            handOver();
        }
    }

    private synchronized void handOver() {
        if (closed) {
            return;
        }
        if (flushedPos == 0) {
            writer.submit(stream, buffer.array(), buffer.position(), buffered);
        } else if (buffer.position() > flushedPos) {
            writer.submit(stream, java.util.Arrays.copyOfRange(buffer.array(), flushedPos, buffer.position()),
                    buffer.position() - flushedPos, buffered - flushedCount);
        }
        handedOver += buffered - flushedCount;
        buffered = 0;
        flushedPos = 0;
        flushedCount = 0;
        buffer = new EventBuffer(FULL); // a busy stream
        COMMITTED.setRelease(this, 0L);
    }

    /**
     * Hands over the events committed since the last hand-over or flush, as a chunk of their own:
     * the writer's timer calls it, so that a killed JVM loses only what its last period committed.
     * Any thread may call; the owner keeps recording meanwhile.
     */
    synchronized void flushCommitted() {
        if (!closed) {
            flushToCommitted();
        }
    }

    /** Writes every committed event; later events of this thread are dropped. Any thread may call. */
    synchronized void close() {
        if (closed) {
            return;
        }
        committedAtClose = flushToCommitted();
        closed = true;
        flushed = handedOver;
    }

    /**
     * Whether the owner committed an event after {@link #close}, one the stream does not hold. A
     * caller that read a value the owner stored after such a commit, and then (a load-load fence
     * between) calls this, sees the commit: {@link #commit} fences its later stores behind it.
     */
    public synchronized boolean committedSinceClose() {
        return closed && (long) COMMITTED.getAcquire(this) != committedAtClose;
    }

    /** Under this monitor: hands over the committed bytes after {@link #flushedPos}; returns the committed mark it read. */
    private long flushToCommitted() {
        long c = (long) COMMITTED.getAcquire(this);
        int pos = (int) c;
        int events = (int) (c >>> 32);
        if (pos > flushedPos) {
            // The owner may still be writing events past pos into this array: hand over a copy.
            writer.submit(stream, java.util.Arrays.copyOfRange(buffer.published(), flushedPos, pos), pos - flushedPos,
                    events - flushedCount);
            handedOver += events - flushedCount;
            flushedPos = pos;
            flushedCount = events;
        }
        return c;
    }
}
