package bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * juc: a fixed pool of worker threads runs many small tasks that share a ConcurrentHashMap,
 * an AtomicLong and a LongAdder, then a chain of CompletableFuture stages on the pool folds the
 * map. What it prints does not depend on the interleaving; how the threads got there does.
 */
public final class JucTasks {
    private JucTasks() {
    }

    public static void main(String[] args) throws Exception {
        Timed.begin();
        int tasks = Integer.parseInt(args[0]);
        int threads = Integer.parseInt(args[1]);
        ConcurrentHashMap<Integer, Long> counts = new ConcurrentHashMap<>();
        AtomicLong total = new AtomicLong();
        LongAdder steps = new LongAdder();
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        List<Future<?>> done = new ArrayList<>();
        for (int t = 0; t < tasks; t++) {
            int task = t;
            done.add(pool.submit(() -> {
                long x = task * 0x9E3779B97F4A7C15L;
                for (int i = 0; i < 32; i++) {
                    x ^= x << 13;
                    x ^= x >>> 7;
                    x ^= x << 17;
                    counts.merge((int) ((x >>> 1) % 512), 1L, Long::sum);
                    steps.increment();
                }
                total.addAndGet(x & 0xFFFF);
            }));
        }
        for (Future<?> f : done) {
            f.get();
        }
        long folded = CompletableFuture.supplyAsync(() -> new TreeMap<>(counts), pool)
                .thenApplyAsync(JucTasks::fold, pool)
                .get();
        pool.shutdown();
        ResultDigest digest = new ResultDigest();
        digest.add(total.get()).add(steps.sum()).add(counts.size()).add(folded);
        digest.print("juc");
        Timed.end();
    }

    private static long fold(Map<Integer, Long> sorted) {
        long h = 17;
        for (Map.Entry<Integer, Long> e : sorted.entrySet()) {
            h = h * 31 + e.getKey() * 1_000_003L + e.getValue();
        }
        return h;
    }
}
