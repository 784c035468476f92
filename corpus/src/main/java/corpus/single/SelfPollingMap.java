package corpus.single;

import corpus.Expect;
import java.lang.ref.ReferenceQueue;
import java.lang.ref.WeakReference;
import java.util.HashMap;
import java.util.Map;

/**
 * A map with weak keys that is its own reference queue, as Mockito's and Byte Buddy's
 * {@code WeakConcurrentMap} are: it polls itself ({@code poll()}, a call naming the subclass) to
 * expunge the entries whose keys the collector took, and reads its keys through their own class
 * ({@code key.get()}, naming the subclass of {@code WeakReference}). What the polls return, and
 * when, depends on when collections ran, which another thread's allocations move from run to run.
 */
@Expect(orders = "rto", plainRunsDiffer = true)
public final class SelfPollingMap extends ReferenceQueue<Object> {
    private final Map<Integer, WeakKey> entries = new HashMap<>();
    private static byte[] otherGarbage;
    private static volatile boolean done;

    /** A key's weak reference, registered with the map, that remembers its slot. */
    private static final class WeakKey extends WeakReference<Object> {
        final int slot;

        WeakKey(Object key, int slot, ReferenceQueue<Object> queue) {
            super(key, queue);
            this.slot = slot;
        }
    }

    /** Drops the entries whose keys were collected; how many. */
    int expunge() {
        int n = 0;
        for (WeakKey stale; (stale = (WeakKey) poll()) != null; ) {
            if (entries.get(stale.slot) == stale) {
                entries.remove(stale.slot);
            }
            n++;
        }
        return n;
    }

    public static void main(String[] args) throws InterruptedException {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
        // Allocates until the map is done: how much, and so when collections run, is the scheduler's.
        Thread allocator = new Thread(() -> {
            for (int i = 0; !done; i++) {
                otherGarbage = new byte[4096 + (i & 4095)];
            }
        });
        allocator.start();
        SelfPollingMap map = new SelfPollingMap();
        Object[] held = new Object[64];
        long expunged = 0;
        long live = 0;
        for (int i = 0; i < rounds; i++) {
            expunged += map.expunge();
            int slot = (int) ((i * 2654435761L) % 4096);
            WeakKey k = map.entries.get(slot);
            if (k != null && k.get() != null) {
                live++;
            } else {
                Object key = new byte[1024];
                held[i & 63] = key;
                map.entries.put(slot, new WeakKey(key, slot, map));
            }
        }
        done = true;
        allocator.join();
        System.out.println("rounds " + rounds + ", expunged " + expunged + ", live keys found " + live + ", entries "
                + map.entries.size());
    }
}
