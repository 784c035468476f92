package corpus.threads;

import corpus.Expect;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

/**
 * Interned strings are shared by every thread: which thread asks for such a string's identity
 * hash first is a race nothing orders. A worker and main each key an identity map by the same
 * interned names, at once, and main prints its map, whose order follows the names' hashes.
 */
@Expect(plainRunsDiffer = true)
public final class SharedStringHashes {
    private SharedStringHashes() {
    }

    public static void main(String[] args) throws Exception {
        // The JVM's identity hashes follow a per-thread sequence: a clock-driven number of earlier
        // hashes makes every plain run differ.
        long warmUp = System.nanoTime() % 97;
        for (long i = 0; i < warmUp; i++) {
            new Object().hashCode();
        }
        String[] names = new String[64];
        for (int i = 0; i < names.length; i++) {
            names[i] = ("name-" + i).intern();
        }
        CountDownLatch go = new CountDownLatch(1);
        Thread worker = new Thread(() -> {
            Map<String, Integer> seen = new IdentityHashMap<>();
            awaitQuietly(go);
            for (int i = names.length - 1; i >= 0; i--) {
                seen.put(names[i], i);
            }
        });
        worker.start();
        go.countDown();
        Map<String, Integer> mine = new IdentityHashMap<>();
        for (int i = 0; i < names.length; i++) {
            mine.put(names[i], i);
        }
        worker.join();
        System.out.println("names by identity: " + mine.values());
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }
}
