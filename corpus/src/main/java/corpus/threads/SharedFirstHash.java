package corpus.threads;

import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.CountDownLatch;

/**
 * Two threads hash the same new objects at once, each into a set of its own, then look each one
 * up again: an object has one identity hash, whichever thread gave it first, so none is missing.
 */
public final class SharedFirstHash {
    public static void main(String[] args) throws Exception {
        int n = Integer.parseInt(args[0]);
        Object[] shared = new Object[n];
        for (int i = 0; i < n; i++) {
            shared[i] = new Object();
        }
        CountDownLatch go = new CountDownLatch(1);
        int[] missing = new int[2];
        Thread[] threads = new Thread[2];
        for (int t = 0; t < 2; t++) {
            int me = t;
            threads[t] = new Thread(() -> {
                Set<Object> seen = new HashSet<>();
                try {
                    go.await();
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
                for (Object o : shared) {
                    seen.add(o);
                }
                for (Object o : shared) {
                    if (!seen.contains(o)) {
                        missing[me]++;
                    }
                }
            });
            threads[t].start();
        }
        go.countDown();
        for (Thread t : threads) {
            t.join();
        }
        System.out.println("objects " + n + ", missing from the first set " + missing[0] + ", from the second " + missing[1]);
    }
}
