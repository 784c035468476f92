package corpus.juc;

import static corpus.juc.Interleavings.runs;
import static corpus.juc.Interleavings.together;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

import corpus.Expect;

/**
 * ConcurrentHashMaps that main fills while it runs alone (directly and from a class initializer),
 * then shares with threads that race on them: the first thread is started inside a
 * {@code computeIfAbsent} and writes the map while main's call is still running, then three
 * threads merge into, claim and iterate the maps. Each line is what the interleaving made of them.
 */
@Expect
public final class AloneThenShared {
    /** Filled by its initializer, which runs while main is alone. */
    static final class Registry {
        static final ConcurrentMap<String, Integer> NAMES = new ConcurrentHashMap<>();

        static {
            for (int i = 0; i < 200; i++) {
                NAMES.merge("name" + (i % 50), i, Integer::sum);
            }
        }
    }

    public static void main(String[] args) throws Exception {
        ConcurrentHashMap<String, Integer> counts = new ConcurrentHashMap<>();
        for (int i = 0; i < 5000; i++) {
            counts.merge("k" + (i % 300), 1, Integer::sum);
            counts.putIfAbsent("p" + (i % 7), i);
        }
        long sum = 0;
        for (Map.Entry<String, Integer> e : counts.entrySet()) {
            sum += e.getValue();
        }
        System.out.println("alone: size " + counts.size() + ", sum " + sum + ", registry " + Registry.NAMES.get("name7")
                + ", k42 " + counts.get("k42"));

        StringBuilder order = new StringBuilder();
        Thread[] writer = new Thread[1];
        counts.computeIfAbsent("first", k -> {
            writer[0] = new Thread(() -> {
                for (int i = 0; i < 300; i++) {
                    counts.merge("w" + (i % 30), 1, Integer::sum);
                    synchronized (order) {
                        order.append('W');
                    }
                }
            });
            writer[0].start();
            return -1;
        });
        for (int i = 0; i < 300; i++) {
            counts.merge("w" + (i % 30), 10, Integer::sum);
            synchronized (order) {
                order.append('M');
            }
        }
        writer[0].join();
        System.out.println("first thread and main: " + runs(order) + ", w0 " + counts.get("w0"));

        Map<String, Character> claimed = new ConcurrentHashMap<>();
        Map<String, String> trails = new ConcurrentHashMap<>();
        together(3, (t, who) -> {
            for (int i = 0; i < 60; i++) {
                String key = "k" + ((i * (t + 1)) % 40);
                claimed.putIfAbsent(key, who);
                trails.merge("t" + (i % 4), String.valueOf(who), String::concat);
                counts.merge(key, 1, Integer::sum);
                Registry.NAMES.merge("name" + (i % 5), t, Integer::sum);
            }
        });
        StringBuilder out = new StringBuilder("claims:");
        for (int k = 0; k < 40; k++) {
            out.append(claimed.get("k" + k));
        }
        System.out.println(out + "; trails " + runs(trails.get("t0")) + " " + runs(trails.get("t3"))
                + "; k39 " + counts.get("k39") + ", name3 " + Registry.NAMES.get("name3"));
    }
}
