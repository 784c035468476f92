package corpus.single;

import corpus.Expect;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.WeakHashMap;

/**
 * A registry in a {@code java.util.WeakHashMap}, as interpreters and frameworks keep objects to
 * finish at shutdown: entries go once the collector took their keys, which another thread's
 * allocations move from run to run. The program drops most keys, keeps some, and at points asks
 * the map's size and walks it; at the end it finishes what is left. Prints what it saw.
 */
@Expect(plainRunsDiffer = true)
public final class WeakKeyedRegistry {
    private static byte[] garbage;
    private static byte[] otherGarbage;

    /** A key the registry holds weakly. */
    private static final class Handle {
        final int id;

        Handle(int id) {
            this.id = id;
        }
    }

    private WeakKeyedRegistry() {
    }

    public static void main(String[] args) throws InterruptedException {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 40_000;
        Thread allocator = new Thread(() -> {
            for (int i = 0; i < rounds * 2; i++) {
                otherGarbage = new byte[4096];
            }
        });
        allocator.start();
        Map<Handle, String> registry = Collections.synchronizedMap(new WeakHashMap<>());
        List<Handle> kept = new ArrayList<>();
        StringBuilder seen = new StringBuilder();
        for (int i = 0; i < rounds; i++) {
            Handle h = new Handle(i);
            registry.put(h, "io-" + i);
            if (i % 97 == 0) {
                kept.add(h);
            }
            garbage = new byte[1024 + (i & 1023)];
            if (i % 5_000 == 4_999) {
                int walked = 0;
                synchronized (registry) {
                    for (Handle k : registry.keySet()) {
                        walked += k.id & 1;
                    }
                }
                seen.append(registry.size()).append('/').append(walked).append(' ');
            }
        }
        allocator.join();
        TreeSet<Integer> finished = new TreeSet<>();
        synchronized (registry) {
            for (Handle k : registry.keySet()) {
                finished.add(k.id);
            }
        }
        System.out.println("sizes " + seen);
        System.out.println("finished " + finished.size() + " (kept " + kept.size() + "), last " + finished.last());
    }
}
