package dev.reprise.agent.instrument.cache;

import java.io.File;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

import dev.reprise.agent.runtime.jdk.OwnThreads;

/**
 * Writes the entries of newly instrumented classes off the loading of classes, on a daemon thread
 * of Reprise's own. An entry written inside the class's transformation writes through
 * {@code FileOutputStream}, which JFR's file events instrument to call JFR's event classes; when
 * one of those was first loaded, its own transformation wrote its entry too, needed itself, and
 * the error it raised waited in JFR's exception tracing for the thread that had started JFR, which
 * waited for that class: the program hung at start ({@code ClassCacheTest}, JFR with an empty
 * cache). A transformation now only queues its entry. The exit writes what is left before the
 * pack, which reads the entries, is saved ({@link ClassCache#savePack}).
 */
final class EntryWriter implements Runnable {
    private record Pending(File file, byte[] input, CacheEntry entry) {
    }

    /** Entries to write, oldest first; guarded by itself, as {@link #writing} is. */
    private final List<Pending> queue = new ArrayList<>();
    /** The daemon is writing an entry it took from the queue. */
    private boolean writing;

    private EntryWriter() {
    }

    /**
     * Starts the daemon: in premain, before the transformer is installed, so that neither making
     * its thread nor loading its classes happens inside a transformation or makes an event.
     */
    static EntryWriter start() {
        EntryWriter w = new EntryWriter();
        OwnThreads.daemon(w, "reprise-cache-writer").start();
        return w;
    }

    /** Queues {@code entry}, made from {@code input}, for {@code file}. */
    void add(File file, byte[] input, CacheEntry entry) {
        synchronized (queue) {
            queue.add(new Pending(file, input, entry));
            queue.notifyAll();
        }
    }

    @Override
    public void run() {
        try {
            while (true) {
                Pending p;
                synchronized (queue) {
                    while (queue.isEmpty()) {
                        queue.wait();
                    }
                    p = queue.remove(0);
                    writing = true;
                }
                try {
                    write(p);
                } finally {
                    // Also if an error ends this thread: the exit's drain waits for writing to clear.
                    synchronized (queue) {
                        writing = false;
                        queue.notifyAll();
                    }
                }
            }
        } catch (InterruptedException e) {
            // nothing interrupts it; the exit writes what is left
        }
    }

    /** At exit: writes what is queued on the calling thread, after the entry the daemon is writing. */
    void drain() {
        while (true) {
            Pending p;
            synchronized (queue) {
                while (writing) {
                    try {
                        queue.wait();
                    } catch (InterruptedException e) {
                        return;
                    }
                }
                if (queue.isEmpty()) {
                    return;
                }
                p = queue.remove(0);
            }
            write(p);
        }
    }

    private static void write(Pending p) {
        try {
            EntryFile.write(p.file(), p.input(), p.entry());
        } catch (IOException | RuntimeException e) {
            // not cached: the next run instruments the class again
        }
    }
}
