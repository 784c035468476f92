package corpus.threads;

import corpus.Expect;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A pool's bookkeeping, as Jetty's keeps it: each new thread is named after its id, then put in a
 * concurrent set of the pool's threads before it starts; the set's order, printed at the end,
 * follows the threads' identity hashes. Asking an unstarted thread its id must not fix a hash
 * of the JVM's on it.
 */
@Expect
public final class ThreadKeys {
    public static void main(String[] args) throws Exception {
        Set<Thread> threads = ConcurrentHashMap.newKeySet();
        for (int i = 0; i < 8; i++) {
            Thread t = new Thread(() -> { });
            t.setDaemon(true);
            t.setName("pool-" + (t.getId() - Thread.currentThread().getId()));
            threads.add(t);
            t.start();
        }
        StringBuilder order = new StringBuilder();
        for (Thread t : threads) {
            t.join();
            order.append(t.getName()).append(' ');
        }
        System.out.println(order.toString().trim());
    }
}
