package corpus.single;

import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Set;

import corpus.Expect;

/**
 * Objects first hashed just after a wait on each, whose monitor the wait inflated and nobody
 * holds: the JVM deflates such a monitor at a moment of its own, so whether it still has one
 * when the object is hashed is the JVM's choice, and a replay's ordered monitor entries inflate
 * monitors its recording did not. Prints the order a hash set of them iterates in, which follows
 * their hashes: the same in the recording and every replay.
 */
@Expect
public final class WaitedOnKeys {
    private static final int KEYS = 24;

    public static void main(String[] args) throws InterruptedException {
        Map<Object, Integer> index = new IdentityHashMap<>();
        Set<Object> keys = new HashSet<>();
        for (int i = 0; i < KEYS; i++) {
            Object key = new Object();
            synchronized (key) {
                key.wait(1);
            }
            keys.add(key);
            index.put(key, i);
        }
        StringBuilder order = new StringBuilder("iteration order:");
        for (Object key : keys) {
            order.append(' ').append(index.get(key));
        }
        System.out.println(order);
    }
}
