package corpus.threads;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import corpus.Expect;

/**
 * Threads that link one method reference at the same moment, as JGit's lock files each file
 * {@code this::unlock} with a shutdown hook's set: which thread's link defines the lambda's class
 * is a race. Each thread then files its own locks' listeners, objects of that class hashed by
 * identity, in one shared set, whose order of iteration follows their hashes. Expected: a
 * replay walks the set in the recording's order, whichever thread linked the reference first.
 */
@Expect(plainRunsDiffer = true)
public final class RacingLambdaLinks {
    private static final int THREADS = 3;
    private static final int LOCKS = 40;

    private RacingLambdaLinks() {
    }

    /** A lock with a listener that releases it: a new lambda object per lock. */
    static final class Lock {
        final int id;
        final Runnable listener = this::unlock;

        Lock(int id) {
            this.id = id;
        }

        void unlock() {
        }
    }

    public static void main(String[] args) throws InterruptedException {
        Map<Runnable, Integer> listeners = new ConcurrentHashMap<>();
        AtOnce.run(THREADS, t -> {
            for (int i = 0; i < LOCKS; i++) {
                Lock lock = new Lock(t * 1_000 + i);
                listeners.put(lock.listener, lock.id);
            }
        });
        StringBuilder order = new StringBuilder();
        for (int id : listeners.values()) {
            order.append(id).append(' ');
        }
        System.out.println(order.toString().trim());
    }
}
