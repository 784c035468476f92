package dev.reprise.core.log;

import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.locks.LockSupport;
import java.util.zip.Deflater;

import dev.reprise.core.recording.RecordingWriter;

/**
 * Compresses and appends chunks to stream files on one background thread, so that recorded
 * threads never make a system call per event. The queue is bounded: a recorder that outruns
 * the disk blocks rather than growing without limit. A second thread, every
 * {@value #FLUSH_MILLIS} ms, hands over each stream's events committed since (its own chunk,
 * {@link ThreadLog#flushCommitted}), so that a JVM killed outright leaves on disk every event
 * committed before its last period, not only full chunks; the recorded threads pay nothing for it
 * on their path.
 */
public final class LogWriter implements EventSink {
    private static final Job STOP = new Job(null, null, 0, 0);

    /** A chunk of {@code thread}'s stream to write: {@code data[0, len)}, which the writer owns from then on. */
    private record Job(String thread, byte[] data, int len, int events) {
    }

    /** Chunks handed over and not yet written; one more makes the handing thread wait. */
    static final int QUEUED = 64;
    /** The period of the timed flush. */
    public static final long FLUSH_MILLIS = 100;

    private final RecordingWriter recording;
    private final BlockingQueue<Job> queue = new ArrayBlockingQueue<>(QUEUED);
    private final Map<String, OutputStream> files = new HashMap<>();
    /** The writer thread's own: chunks are compressed one at a time. */
    private final Deflater deflater = StreamFormat.newDeflater();
    private final List<ThreadLog> logs = new ArrayList<>();
    /** Set by {@link #close()}: streams opened later (threads started during exit) stay empty. */
    private boolean closing;
    private final Thread thread;
    private final Thread flusher;
    /** The first write failure; later chunks are dropped and {@link #close()} reports it. */
    private volatile IOException failure;
    private final FailureListener onFailure;

    /** Told of the first write failure, on the writer's thread, as it happens: the recording is cut there. */
    public interface FailureListener {
        void failed(IOException e);
    }

    public LogWriter(RecordingWriter recording, FailureListener onFailure) throws IOException {
        this(recording, onFailure, Thread.currentThread().getThreadGroup());
    }

    /** Its writer and flusher threads in {@code threads}: a recorder hides its own from the program it records. */
    public LogWriter(RecordingWriter recording, FailureListener onFailure, ThreadGroup threads) throws IOException {
        this.onFailure = onFailure;
        recording.createStreams();
        this.recording = recording;
        this.thread = new Thread(threads, this::run, "reprise-writer");
        thread.setDaemon(true);
        this.flusher = new Thread(threads, this::flushPeriodically, "reprise-flusher");
        flusher.setDaemon(true);
    }

    public void start() {
        thread.start();
        flusher.start();
    }

    /** A new event stream, {@code thread}'s; its file is created when its first chunk is written. */
    @Override
    public synchronized ThreadLog open(String thread) {
        ThreadLog log = new ThreadLog(thread, this);
        if (closing) {
            log.close();
        } else {
            logs.add(log);
        }
        return log;
    }

    /**
     * Forgets {@code log}, which holds no event, as if it had never been opened: no file is
     * created for it. Searched from the newest, which it usually is.
     */
    @Override
    public synchronized void discard(ThreadLog log) {
        for (int i = logs.size() - 1; i >= 0; i--) {
            if (logs.get(i) == log) {
                logs.remove(i);
                return;
            }
        }
    }

    /** Queues {@code data[0, len)}, {@code events} whole events, for writing; the caller gives the array up. */
    void submit(String thread, byte[] data, int len, int events) {
        boolean interrupted = false;
        while (true) {
            try {
                queue.put(new Job(thread, data, len, events));
                break;
            } catch (InterruptedException e) {
                interrupted = true; // the program's interrupt is not ours to consume
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        // put may have parked this thread (a full queue, or its lock contended), and a park takes
        // the thread's permit: one the program's own unpark had left for the program's next
        // LockSupport.park, which would then never return (a juc recording hung in
        // FutureTask.get). Giving a permit back makes that park return, at worst once
        // spuriously, which every park loop allows for. In a recording JVM the event being
        // committed holds the thread, so Reprise's unpark hook lets this run live.
        LockSupport.unpark(Thread.currentThread());
    }

    /** Flushes every stream's committed events, waits for the disk writes, and stops. */
    @Override
    public void close() throws IOException {
        List<ThreadLog> all;
        synchronized (this) {
            closing = true;
            all = new ArrayList<>(logs);
        }
        for (ThreadLog log : all) {
            log.close();
        }
        submitStop();
        try {
            thread.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (failure != null) {
            throw failure;
        }
    }

    /** The flusher's loop; it ends with {@link #close}, which flushes everything itself. */
    private void flushPeriodically() {
        List<ThreadLog> all = new ArrayList<>();
        while (true) {
            try {
                Thread.sleep(FLUSH_MILLIS);
            } catch (InterruptedException e) {
                // only the period's end matters
            }
            synchronized (this) {
                if (closing) {
                    return;
                }
                all.clear();
                all.addAll(logs);
            }
            for (ThreadLog log : all) {
                log.flushCommitted();
            }
        }
    }

    private void submitStop() {
        while (true) {
            try {
                queue.put(STOP);
                return;
            } catch (InterruptedException e) {
                // keep trying: losing the stop would lose the tail of the recording
            }
        }
    }

    private void run() {
        while (true) {
            Job job;
            try {
                job = queue.take();
            } catch (InterruptedException e) {
                continue;
            }
            if (job == STOP) {
                closeFiles();
                return;
            }
            if (failure == null) {
                try {
                    OutputStream out = files.get(job.thread);
                    if (out == null) {
                        out = recording.newStream(job.thread);
                        out.write(StreamFormat.fileHeader());
                        files.put(job.thread, out);
                    }
                    out.write(StreamFormat.encodeChunk(deflater, job.data, job.len, job.events));
                    out.flush();
                } catch (IOException e) {
                    fail(e);
                } catch (RuntimeException | Error e) {
                    fail(new IOException("recording writer failed", e));
                }
            }
        }
    }

    private void closeFiles() {
        deflater.end();
        for (OutputStream out : files.values()) {
            try {
                out.close();
            } catch (IOException e) {
                fail(e);
            }
        }
    }

    /** Whether a write failed: the streams then end where it did, and their counts are on disk only. */
    public boolean failed() {
        return failure != null;
    }

    /** Writer thread only: keeps the first failure and reports it once. */
    private void fail(IOException e) {
        if (failure == null) {
            failure = e;
            onFailure.failed(e);
        }
    }
}
