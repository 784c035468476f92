package corpus.single;

import corpus.Expect;
import java.lang.ref.ReferenceQueue;
import java.lang.ref.WeakReference;
import java.util.HashMap;
import java.util.Map;

/**
 * A cache of weakly held values that expunges its stale entries from a reference queue, as
 * Groovy's and Guava's concurrent reference maps do: before each lookup it polls the queue and
 * drops the entries whose values the collector took. What the queue returns, and when, depends on
 * when collections ran, which another thread's allocations move from run to run; so does the
 * cache's size, which this prints with the count and places of the expunged entries. At the end
 * it waits on the queue ({@code remove} with a timeout) for one more.
 */
@Expect(orders = "rto", plainRunsDiffer = true)
public final class ReferenceQueues {
    private static byte[] garbage;
    private static byte[] otherGarbage;

    /** A value's weak reference that remembers its key, so that it can be expunged. */
    private static final class Entry extends WeakReference<int[]> {
        final int key;

        Entry(int key, int[] value, ReferenceQueue<int[]> queue) {
            super(value, queue);
            this.key = key;
        }
    }

    private ReferenceQueues() {
    }

    public static void main(String[] args) throws InterruptedException {
        int lookups = args.length > 0 ? Integer.parseInt(args[0]) : 300_000;
        Thread allocator = new Thread(() -> {
            for (int i = 0; i < lookups; i++) {
                otherGarbage = new byte[512];
            }
        });
        allocator.start();
        ReferenceQueue<int[]> queue = new ReferenceQueue<>();
        Map<Integer, Entry> cache = new HashMap<>();
        long expunged = 0;
        long expungedKeys = 0;
        for (int i = 0; i < lookups; i++) {
            for (Entry stale; (stale = (Entry) queue.poll()) != null; ) {
                // An entry replaced since holds a newer reference: only the same one goes.
                if (cache.get(stale.key) == stale) {
                    cache.remove(stale.key);
                }
                expunged++;
                expungedKeys = expungedKeys * 31 + stale.key;
            }
            int key = (int) ((i * 2654435761L) % 1024);
            Entry e = cache.get(key);
            int[] value = e == null ? null : e.get();
            if (value == null) {
                value = new int[64];
                value[0] = key;
                cache.put(key, new Entry(key, value, queue));
            }
            garbage = new byte[256 + (i & 1023)];
        }
        allocator.join();
        cache.put(-1, new Entry(-1, new int[1], queue));
        System.gc();
        Entry last = (Entry) queue.remove(200);
        System.out.println("lookups " + lookups + ", expunged " + expunged + " (keys " + Long.toHexString(expungedKeys)
                + "), cached " + cache.size() + ", then " + (last == null ? "none" : "key " + last.key)
                + ", garbage " + garbage.length);
    }
}
