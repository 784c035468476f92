package dev.reprise.agent.runtime.identity;

import java.lang.ref.ReferenceQueue;
import java.lang.ref.WeakReference;

/**
 * A map from objects, compared by identity and held weakly, to values. Reprise's runtime uses it
 * instead of the JDK's maps because those maps are themselves instrumented (their hashing calls
 * go through {@link IdentityHashes}); this one calls the real {@link System#identityHashCode}.
 * All methods are synchronized: callers are rare or already on a slow path.
 */
public final class WeakIdentityTable<V> {
    private static final class Entry<V> extends WeakReference<Object> {
        final int hash;
        V value;
        Entry<V> next;

        Entry(Object key, int hash, V value, Entry<V> next, ReferenceQueue<Object> queue) {
            super(key, queue);
            this.hash = hash;
            this.value = value;
            this.next = next;
        }
    }

    private final ReferenceQueue<Object> queue = new ReferenceQueue<>();
    private Entry<V>[] table = newTable(64);
    private int size;

    @SuppressWarnings("unchecked")
    private static <V> Entry<V>[] newTable(int n) {
        return (Entry<V>[]) new Entry<?>[n];
    }

    public synchronized V get(Object key) {
        // Every key was hashed when put: an object never hashed is not one, and hashing it here
        // would fix a JVM hash on it, which the program could then see (a thread asked its id).
        if (IdentityHashes.surelyUnhashed(key)) {
            return null;
        }
        int h = System.identityHashCode(key);
        for (Entry<V> e = table[index(h)]; e != null; e = e.next) {
            if (e.hash == h && e.get() == key) {
                return e.value;
            }
        }
        return null;
    }

    /** Removes {@code key}'s entry; false if it had none. */
    public synchronized boolean remove(Object key) {
        if (IdentityHashes.surelyUnhashed(key)) {
            return false;
        }
        int h = System.identityHashCode(key);
        int i = index(h);
        for (Entry<V> e = table[i], prev = null; e != null; prev = e, e = e.next) {
            if (e.hash == h && e.get() == key) {
                if (prev == null) {
                    table[i] = e.next;
                } else {
                    prev.next = e.next;
                }
                size--;
                return true;
            }
        }
        return false;
    }

    /** A hash's bucket: the high half folded in, as the provisional values' low bits are fixed ({@code ProvisionalHashes}). */
    private int index(int h) {
        return (h ^ (h >>> 16)) & (table.length - 1);
    }

    public synchronized void put(Object key, V value) {
        expunge();
        int h = System.identityHashCode(key);
        int i = index(h);
        for (Entry<V> e = table[i]; e != null; e = e.next) {
            if (e.hash == h && e.get() == key) {
                e.value = value;
                return;
            }
        }
        table[i] = new Entry<>(key, h, value, table[i], queue);
        if (++size > table.length * 3 / 4) {
            resize();
        }
    }

    private void resize() {
        Entry<V>[] old = table;
        table = newTable(old.length * 2);
        for (Entry<V> head : old) {
            for (Entry<V> e = head; e != null; ) {
                Entry<V> next = e.next;
                int i = index(e.hash);
                e.next = table[i];
                table[i] = e;
                e = next;
            }
        }
    }

    private void expunge() {
        for (Object r; (r = queue.poll()) != null; ) {
            @SuppressWarnings("unchecked")
            Entry<V> dead = (Entry<V>) r;
            int i = index(dead.hash);
            Entry<V> prev = null;
            for (Entry<V> e = table[i]; e != null; prev = e, e = e.next) {
                if (e == dead) {
                    if (prev == null) {
                        table[i] = e.next;
                    } else {
                        prev.next = e.next;
                    }
                    size--;
                    break;
                }
            }
        }
    }
}
