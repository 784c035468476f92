package corpus.threads;

import java.util.ResourceBundle;

/**
 * Threads loading one resource bundle (a properties file on the class path) one after the
 * other, as a server's connections look up their messages: the JDK keeps loaded bundles in a
 * cache, and the first thread to miss it loads the bundle, building a map from a
 * {@code Properties}; the later ones find it cached. Nothing orders a later thread's lookup
 * after the first thread's load but the time between them, so which threads load it is a race.
 * Prints what each thread read, in thread order.
 */
public final class LateBundleLoads {
    private static final int THREADS = 4;
    private static final String[] KEYS = {"greeting", "farewell", "count"};

    private LateBundleLoads() {
    }

    public static void main(String[] args) throws InterruptedException {
        String[] results = new String[THREADS];
        Thread[] threads = new Thread[THREADS];
        for (int i = 0; i < THREADS; i++) {
            int id = i;
            threads[i] = new Thread(() -> {
                try {
                    Thread.sleep(100L * id);
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
                results[id] = ResourceBundle.getBundle("corpus.threads.LateBundleLoads").getString(KEYS[id % KEYS.length]);
            }, "user-" + i);
            threads[i].start();
        }
        for (Thread t : threads) {
            t.join();
        }
        for (int i = 0; i < THREADS; i++) {
            System.out.println("thread " + i + ": " + results[i]);
        }
    }
}
