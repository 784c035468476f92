package corpus.threads;

import java.lang.ref.Cleaner;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;

import corpus.Expect;

/**
 * Cleanups that look at the thread they run on, as an interpreter keeps its state per thread in
 * a map keyed by the thread: a {@code finalize} method (the JVM's finalizer thread) and a
 * {@code Cleaner} action (the cleaner's own thread, which main started) each note the identity
 * hash of {@code Thread.currentThread()}, and main prints them. A replay runs the cleanups on
 * threads of its own, which must show the recorded threads' hashes. (Plain runs print the same:
 * the JVM's hashes follow a sequence of its own; a replay's cleanup threads come at another point.)
 */
@Expect
public final class CleanupThreadHashes {
    private static final Map<String, String> SEEN = new TreeMap<>();
    private static final CountDownLatch CLEANED = new CountDownLatch(2);

    private static void seen(String by) {
        synchronized (SEEN) {
            SEEN.put(by, Integer.toHexString(System.identityHashCode(Thread.currentThread())));
        }
        CLEANED.countDown();
    }

    private static final class Finalizable {
        @Override
        @SuppressWarnings("deprecation")
        protected void finalize() {
            seen("finalizer");
        }
    }

    private static void drop(Cleaner cleaner) {
        new Finalizable();
        cleaner.register(new byte[1024], () -> seen("cleaner"));
    }

    public static void main(String[] args) throws Exception {
        // Under RTO a cleanup is recorded once main no longer runs alone.
        Thread other = new Thread(() -> System.out.println("another thread ran"));
        other.start();
        other.join();
        drop(Cleaner.create());
        for (int i = 0; i < 200 && CLEANED.getCount() > 0; i++) {
            System.gc();
            Thread.sleep(5);
        }
        synchronized (SEEN) {
            SEEN.forEach((by, hash) -> System.out.println(by + " ran on a thread hashed " + hash));
        }
    }
}
