package corpus.races;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

/**
 * Threads that each count visits in a {@code HashMap} of their own, keyed by objects main made and
 * shares, which hash by identity: which thread hashes each key first is a race nothing orders, and
 * the first to hash a key gives it its value. Each thread prints its map in iteration order, which
 * follows the keys' hashes. Exercises a race on identity hashes that no option names: the first
 * recording learns the keys' class, and the next gives each key its hash where main makes it.
 */
public final class SharedKeys {
    private static final int KEYS = 24;
    private static final int THREADS = 3;

    /** A key of the maps, with no hash of its own. */
    static final class Key {
        private final String name;

        Key(String name) {
            this.name = name;
        }

        @Override
        public String toString() {
            return name;
        }
    }

    private SharedKeys() {
    }

    public static void main(String[] args) throws InterruptedException {
        Key[] keys = new Key[KEYS];
        for (int k = 0; k < KEYS; k++) {
            keys[k] = new Key("k" + k);
        }
        // Filled before the threads start, which only append to their own: no race on the array.
        StringBuilder[] counted = new StringBuilder[THREADS];
        for (int t = 0; t < THREADS; t++) {
            counted[t] = new StringBuilder();
        }
        Thread[] threads = new Thread[THREADS];
        CountDownLatch start = new CountDownLatch(1);
        for (int t = 0; t < THREADS; t++) {
            int id = t;
            threads[t] = new Thread(() -> {
                try {
                    start.await();
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
                Map<Key, Integer> visits = new HashMap<>();
                for (int i = 0; i < 60; i++) {
                    visits.merge(keys[(i * (id + 5) + id * 7) % KEYS], 1, Integer::sum);
                }
                counted[id].append(visits);
            });
        }
        for (Thread t : threads) {
            t.start();
        }
        start.countDown();
        for (Thread t : threads) {
            t.join();
        }
        for (StringBuilder c : counted) {
            System.out.println(c);
        }
    }
}
