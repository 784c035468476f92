package corpus.single;

import corpus.Expect;
import java.lang.ref.SoftReference;
import java.lang.ref.WeakReference;
import java.util.HashMap;
import java.util.Map;

/**
 * A cache of weakly held values (FOP's property cache is one): a lookup whose value the collector
 * cleared creates it again. Which lookups miss depends on when collections ran, which differs
 * from run to run (another thread allocates meanwhile); so do the misses this prints, by
 * count and place. A soft reference to the last value is read too, and before each read the
 * cache asks {@code refersTo(null)}, whether the collector cleared the value, without reading it.
 */
@Expect(orders = "rto", plainRunsDiffer = true)
public final class WeakCache {
    private static byte[] garbage;
    private static byte[] otherGarbage;

    private WeakCache() {
    }

    public static void main(String[] args) throws InterruptedException {
        int lookups = args.length > 0 ? Integer.parseInt(args[0]) : 300_000;
        // Another thread's allocations move the collections against this loop, by scheduling.
        Thread allocator = new Thread(() -> {
            for (int i = 0; i < lookups; i++) {
                otherGarbage = new byte[512];
            }
        });
        allocator.start();
        Map<Integer, WeakReference<int[]>> cache = new HashMap<>();
        SoftReference<int[]> last = new SoftReference<>(null);
        long misses = 0;
        long missedAt = 0;
        long softHits = 0;
        long seenCleared = 0;
        for (int i = 0; i < lookups; i++) {
            int key = (int) ((i * 2654435761L) % 1024);
            WeakReference<int[]> ref = cache.get(key);
            if (ref != null && ref.refersTo(null)) {
                seenCleared++;
            }
            int[] value = ref == null ? null : ref.get();
            if (value == null) {
                misses++;
                missedAt = missedAt * 31 + i;
                value = new int[64];
                value[0] = key;
                cache.put(key, new WeakReference<>(value));
            }
            if (last.get() != null) {
                softHits++;
            }
            last = new SoftReference<>(value);
            garbage = new byte[256 + (i & 1023)];
        }
        allocator.join();
        System.out.println("lookups " + lookups + ", misses " + misses + " (at " + Long.toHexString(missedAt)
                + "), seen cleared " + seenCleared + ", soft hits " + softHits
                + ", garbage " + garbage.length);
    }
}
