package corpus.threads;

import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;
import java.util.concurrent.CountDownLatch;

import corpus.Expect;

/**
 * Objects that two threads hash first at once, as Netty's event loops file the static thread
 * locals they use in sets of their own, by identity: each thread files the same shared objects,
 * from opposite ends, in an identity set of its own, then prints the order its set walks them in.
 * An object's identity hash is whichever thread's came first, and the walk follows the hashes.
 * Expected: a replay gives each object the recording's first hasher's value, so both walks match.
 */
@Expect
public final class FirstHashRace {
    private static final int OBJECTS = 200;

    private FirstHashRace() {
    }

    public static void main(String[] args) throws InterruptedException {
        Object[] shared = new Object[OBJECTS];
        for (int i = 0; i < OBJECTS; i++) {
            shared[i] = new Object();
        }
        CountDownLatch go = new CountDownLatch(1);
        long[] walks = new long[2];
        Thread[] threads = new Thread[2];
        for (int t = 0; t < threads.length; t++) {
            int me = t;
            threads[t] = new Thread(() -> {
                Set<Object> filed = Collections.newSetFromMap(new IdentityHashMap<>());
                try {
                    go.await();
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
                for (int k = 0; k < OBJECTS; k++) {
                    filed.add(shared[me == 0 ? k : OBJECTS - 1 - k]);
                }
                long walk = 0;
                for (Object o : filed) {
                    walk = walk * 31 + indexOf(shared, o);
                }
                walks[me] = walk;
            }, "filer-" + t);
            threads[t].start();
        }
        go.countDown();
        for (Thread t : threads) {
            t.join();
        }
        System.out.println("walks " + Long.toHexString(walks[0]) + " " + Long.toHexString(walks[1]));
    }

    private static int indexOf(Object[] shared, Object o) {
        for (int i = 0; i < shared.length; i++) {
            if (shared[i] == o) {
                return i;
            }
        }
        return -1;
    }
}
