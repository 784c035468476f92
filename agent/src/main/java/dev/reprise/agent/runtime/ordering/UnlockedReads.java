package dev.reprise.agent.runtime.ordering;

import dev.reprise.agent.runtime.events.ThreadCtx;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * Record, RTO: reads made without the slot's lock. A read of a memory slot by a thread that read
 * it since the slot's last write is relaxed ({@link RecordOrder#recordMemory}): it logs nothing and
 * leaves only the reader's count in the slot. Taking the slot's lock for it, as every other event
 * does, moved the slot's cache line between cores at every read when two threads read one
 * location (h2's clients both read a cache field; the lock was 8% of their recorded time). Such a
 * read takes no lock and writes nothing shared; a write on the slot waits for it instead.
 *
 * <p>The handshake is a Dekker pair of volatile store-then-load. The reader announces the slot it
 * reads ({@link Reader#reading}, its own), then reads the slot's last write: if that is the one
 * it registered after, the read goes ahead unlocked. A writer, holding the slot's lock, stores
 * itself as the slot's last write before its action, then reads each registered reader's
 * announcement. Volatile accesses have one total order, so at least one of the two sees the
 * other's store. If the reader sees the write, it takes the lock and the ordinary path, which
 * orders it after the write. If the writer sees the announcement, it waits until the read is
 * done, and orders itself after the reader's count then: the read saw the value before the
 * write, and replay makes the write wait for it.
 *
 * <p>That count is the reader's last unlocked read's (or its registered read's, if later): at
 * least its last read of the slot's, perhaps later events' too. That is more order than needed,
 * never a cycle, as long as none of the events it names can be ordered after the writer's: each
 * had completed when the writer took the count, and the writer takes every count before any other
 * event can order after it. It holds the slot's lock, and only then becomes the program's last
 * ordered event, which a first use elsewhere orders after ({@link SyncOrder#orderedAfterReads}).
 */
final class UnlockedReads {
    /** Slots a thread remembers being a reader of, a power of two: an entry per {@code slot & (ENTRIES - 1)}. */
    private static final int ENTRIES = 8;
    private static final VarHandle READING;
    private static final VarHandle READERS_ELEMENT = MethodHandles.arrayElementVarHandle(Reader[].class);
    /**
     * Each thread's {@link Reader} by its index, once it made a read unlocked; through
     * {@link #READERS_ELEMENT}. In a class of its own, made at the first registered read: a
     * program whose reads are never ordered (one thread) never needs it.
     */
    private static final class Readers {
        static final Reader[] BY_THREAD = new Reader[SyncOrder.MAX_THREADS];
    }
    private static final int SPINS = 64;

    static {
        try {
            READING = MethodHandles.lookup().findVarHandle(Reader.class, "reading", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** A thread's reads without a lock. Its own object: the thread writes it, writers read it rarely. */
    static final class Reader {
        final Thread thread;
        /** Per entry: a slot plus one the thread registered as a reader of, and the slot's last write then. */
        final int[] slots = new int[ENTRIES];
        final long[] since = new long[ENTRIES];
        /** The slot plus one of the unlocked read in progress, else 0; through {@link #READING}. */
        int reading;
        /** The count of the thread's last unlocked read, written before {@link #reading} is cleared. */
        long count;

        Reader(Thread thread) {
            this.thread = thread;
        }
    }

    private UnlockedReads() {
    }

    /**
     * The slot's lock held: {@code ctx}'s thread registered as a reader of {@code slot}, whose last
     * write is {@code lastWrite}. Only a thread's own context reads unlocked: a class
     * initializer's index is given back and taken again, which would confuse {@link Readers}.
     */
    static void registered(ThreadCtx ctx, int slot, long lastWrite) {
        if (ctx.initializing != null) {
            return;
        }
        Reader r = (Reader) ctx.reader;
        if (r == null) {
            r = new Reader(ctx.thread);
            ctx.reader = r;
            // Published before the thread's first unlocked read, which a writer can only meet
            // after reading this registration in the slot, under the slot's lock.
            READERS_ELEMENT.setRelease(Readers.BY_THREAD, ctx.index, r);
        }
        int k = slot & (ENTRIES - 1);
        r.slots[k] = slot + 1;
        r.since[k] = lastWrite;
    }

    /**
     * Whether the read of {@code slot} about to happen goes ahead unlocked: the thread is a reader
     * of the slot and no write came since. If so, {@link #end} must follow the read.
     */
    static boolean begin(ThreadCtx ctx, int slot) {
        Reader r = (Reader) ctx.reader;
        if (r == null) {
            return false;
        }
        int k = slot & (ENTRIES - 1);
        if (r.slots[k] != slot + 1) {
            return false;
        }
        READING.setVolatile(r, slot + 1);
        if (RecordOrder.lastWrite(slot) == r.since[k]) {
            return true;
        }
        READING.setRelease(r, 0);
        r.slots[k] = 0;
        return false;
    }

    /** After the unlocked read whose event has count {@code count}. */
    static void end(ThreadCtx ctx, long count) {
        Reader r = (Reader) ctx.reader;
        r.count = count;
        READING.setRelease(r, 0);
    }

    /**
     * A writer on {@code slot}, holding its lock and having stored itself as the slot's last
     * write (volatile): the count to order after for {@code registeredCount}, the count of thread
     * {@code index}'s registered read. Waits while that thread reads the slot unlocked, unless it
     * is the current thread itself: a class initializer the read set off, whose write the read,
     * held up before its load, then sees in replay too, on the same thread.
     */
    static long orderAfter(int index, long registeredCount, int slot) {
        Reader r = (Reader) READERS_ELEMENT.getAcquire(Readers.BY_THREAD, index);
        if (r == null) {
            return registeredCount;
        }
        for (int i = 0; (int) READING.getVolatile(r) == slot + 1 && r.thread != Thread.currentThread(); i++) {
            if (i < SPINS) {
                Thread.onSpinWait();
            } else {
                Thread.yield();
            }
        }
        return Math.max(registeredCount, r.count);
    }
}
