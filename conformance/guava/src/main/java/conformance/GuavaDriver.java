package conformance;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import com.google.common.cache.CacheBuilder;
import com.google.common.cache.CacheLoader;
import com.google.common.cache.LoadingCache;
import com.google.common.collect.ConcurrentHashMultiset;
import com.google.common.collect.ImmutableSortedMap;
import com.google.common.eventbus.AsyncEventBus;
import com.google.common.eventbus.Subscribe;
import com.google.common.hash.Hashing;
import com.google.common.util.concurrent.Futures;
import com.google.common.util.concurrent.ListenableFuture;
import com.google.common.util.concurrent.ListeningExecutorService;
import com.google.common.util.concurrent.MoreExecutors;
import com.google.common.util.concurrent.Striped;

/**
 * Guava's concurrency: a listening executor of 4 threads shares a loading cache, a concurrent
 * multiset and striped locks; an async event bus delivers events; results are combined with
 * futures. What it prints does not depend on the interleaving.
 */
public final class GuavaDriver {
    public static void main(String[] args) throws Exception {
        int tasks = Integer.parseInt(args[0]);
        ListeningExecutorService pool = MoreExecutors.listeningDecorator(Executors.newFixedThreadPool(4));
        LoadingCache<Integer, String> cache = CacheBuilder.newBuilder().maximumSize(200).concurrencyLevel(4)
                .build(CacheLoader.from(k -> Hashing.sha256().hashInt(k).toString()));
        ConcurrentHashMultiset<String> counts = ConcurrentHashMultiset.create();
        Striped<java.util.concurrent.locks.Lock> locks = Striped.lock(8);
        long[] sums = new long[8];
        List<ListenableFuture<Integer>> futures = new ArrayList<>();
        for (int i = 0; i < tasks; i++) {
            int n = i;
            futures.add(pool.submit(() -> {
                String h = cache.getUnchecked(n % 300);
                counts.add(h.substring(0, 1));
                java.util.concurrent.locks.Lock l = locks.getAt(n % 8);
                l.lock();
                try {
                    sums[n % 8] += h.charAt(1);
                } finally {
                    l.unlock();
                }
                return h.length();
            }));
        }
        int total = Futures.allAsList(futures).get().stream().mapToInt(Integer::intValue).sum();
        System.out.println("hash chars: " + total);
        System.out.println("first chars: " + ImmutableSortedMap.copyOf(
                counts.entrySet().stream().collect(java.util.stream.Collectors.toMap(e -> e.getElement(), e -> e.getCount()))));
        System.out.println("stripe sums: " + java.util.Arrays.toString(sums));
        ConcurrentHashMultiset<Integer> received = ConcurrentHashMultiset.create();
        AsyncEventBus bus = new AsyncEventBus(pool);
        bus.register(new Object() {
            @Subscribe
            public void on(Integer e) {
                received.add(e % 10);
            }
        });
        for (int i = 0; i < tasks; i++) {
            bus.post(i);
        }
        pool.shutdown();
        System.out.println("terminated: " + pool.awaitTermination(1, TimeUnit.MINUTES));
        System.out.println("events: " + ImmutableSortedMap.copyOf(
                received.entrySet().stream().collect(java.util.stream.Collectors.toMap(e -> e.getElement(), e -> e.getCount()))));
    }
}
