package corpus.threads;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

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
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < THREADS; t++) {
            int id = t;
            Thread thread = new Thread(() -> {
                try {
                    start.await();
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
                Map<Kind, Integer> counts = new HashMap<>();
                for (int i = 0; i < 50; i++) {
                    counts.merge(kinds[(i * (id + 3) + id) % kinds.length], 1, Integer::sum);
                }
                counted[id] = counts.toString();
            });
            thread.start();
            threads.add(thread);
        }
        start.countDown();
        for (Thread thread : threads) {
            thread.join();
        }
        for (String c : counted) {
            System.out.println(c);
        }
    }
}
