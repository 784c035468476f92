package corpus.threads;

import java.util.HashMap;
import java.util.Map;

import corpus.Expect;

/**
 * Threads that each count events in a {@code HashMap} of their own keyed by the constants of an
 * enum, which hash by identity: the constants are shared, and which thread hashes each first is
 * a race. Each thread prints its map in iteration order, which follows the constants' hashes.
 * Expected: a replay prints the recording's orders.
 */
@Expect(plainRunsDiffer = true)
public final class SharedEnumKeys {
    /** What a request may be. */
    enum Kind {
        READ, WRITE, DELETE, LIST, WATCH, LOCK, UNLOCK, STAT
    }

    private static final int THREADS = 3;

    private SharedEnumKeys() {
    }

    public static void main(String[] args) throws InterruptedException {
        Kind[] kinds = Kind.values();
        String[] counted = new String[THREADS];
        AtOnce.run(THREADS, id -> {
            Map<Kind, Integer> counts = new HashMap<>();
            for (int i = 0; i < 50; i++) {
                counts.merge(kinds[(i * (id + 3) + id) % kinds.length], 1, Integer::sum);
            }
            counted[id] = counts.toString();
        });
        for (String c : counted) {
            System.out.println(c);
        }
    }
}
