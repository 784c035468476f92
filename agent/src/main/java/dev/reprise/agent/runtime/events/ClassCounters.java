package dev.reprise.agent.runtime.events;

import java.util.Arrays;

/**
 * Per-class counters of one thread: how many objects of each class the thread has given an
 * identity hash. Owned by one thread, so unsynchronized; open addressing keyed by the Class
 * object's own JVM identity hash.
 */
public final class ClassCounters {
    private static final Class<?>[] NO_KEYS = {};
    private static final int[] NO_COUNTS = {};

    /**
     * Empty until the thread first hashes by identity: every class initializer runs in a context
     * of its own, and most hash nothing (two arrays each were 0.2 MB of a FOP recording). The
     * empty arrays are shared: they are replaced, never written.
     */
    private Class<?>[] keys = NO_KEYS;
    private int[] counts = NO_COUNTS;
    private int size;

    /** Increments and returns the counter of {@code c}. */
    public int next(Class<?> c) {
        if (keys.length == 0) {
            keys = new Class<?>[32];
            counts = new int[32];
        }
        int mask = keys.length - 1;
        int i = System.identityHashCode(c) & mask;
        while (keys[i] != null) {
            if (keys[i] == c) {
                return ++counts[i];
            }
            i = (i + 1) & mask;
        }
        keys[i] = c;
        counts[i] = 1;
        if (++size > keys.length / 2) {
            grow();
        }
        return 1;
    }

    /** Sets every counter back to zero. */
    public void clear() {
        if (size > 0) {
            Arrays.fill(keys, null);
            size = 0;
        }
    }

    private void grow() {
        Class<?>[] oldKeys = keys;
        int[] oldCounts = counts;
        keys = new Class<?>[oldKeys.length * 2];
        counts = new int[oldKeys.length * 2];
        int mask = keys.length - 1;
        for (int j = 0; j < oldKeys.length; j++) {
            if (oldKeys[j] != null) {
                int i = System.identityHashCode(oldKeys[j]) & mask;
                while (keys[i] != null) {
                    i = (i + 1) & mask;
                }
                keys[i] = oldKeys[j];
                counts[i] = oldCounts[j];
            }
        }
    }
}
