package corpus.juc;

import static corpus.juc.Interleavings.label;
import static corpus.juc.Interleavings.ranges;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import corpus.Expect;

/**
 * CompletableFuture chains and parallel streams, printing where and in which order their stages
 * ran: supplyAsync, thenApplyAsync, thenCombine, allOf and anyOf on a pool of three and on the
 * common pool (where a thenApply stage runs in the completing worker or, if already complete, in
 * the caller), and the order in which a parallel stream's map and forEach met the elements.
 */
@Expect
public final class Futures {
    public static void main(String[] args) throws Exception {
        customPool();
        commonPool();
        parallelStreams();
    }

    static void customPool() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(3);
        AtomicInteger tickets = new AtomicInteger();
        List<CompletableFuture<String>> stages = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            stages.add(CompletableFuture.supplyAsync(() -> label() + "#" + tickets.getAndIncrement(), pool)
                    .thenApplyAsync(s -> s + ">" + label() + "#" + tickets.getAndIncrement(), pool));
        }
        List<CompletableFuture<String>> pairs = new ArrayList<>();
        for (int i = 0; i < 6; i += 2) {
            pairs.add(stages.get(i).thenCombine(stages.get(i + 1), (a, b) -> a + "+" + b));
        }
        CompletableFuture.allOf(pairs.toArray(new CompletableFuture<?>[0])).join();
        StringBuilder out = new StringBuilder("pool of three, supply>apply by worker#ticket, combined in pairs:");
        for (CompletableFuture<String> p : pairs) {
            out.append(' ').append(p.join());
        }
        System.out.println(out);
        CompletableFuture<?>[] racers = new CompletableFuture<?>[3];
        for (int i = 0; i < 3; i++) {
            int id = i;
            racers[i] = CompletableFuture.supplyAsync(() -> {
                for (int k = 0; k < 3; k++) {
                    Thread.yield();
                }
                return "racer " + id + " first, ticket " + tickets.getAndIncrement();
            }, pool);
        }
        Object winner = CompletableFuture.anyOf(racers).join();
        CompletableFuture.allOf(racers).join();
        pool.shutdown();
        System.out.println("anyOf: " + winner + "; terminated " + pool.awaitTermination(1, TimeUnit.MINUTES));
    }

    static void commonPool() {
        AtomicInteger tickets = new AtomicInteger();
        List<CompletableFuture<String>> chain = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            CompletableFuture<String> f = CompletableFuture.supplyAsync(() -> label() + "#" + tickets.getAndIncrement());
            if (i % 2 == 1) {
                Thread.yield();
            }
            chain.add(f.thenApply(s -> s + ">" + label()));
        }
        StringBuilder out = new StringBuilder("common pool, supply>thenApply ran on:");
        for (CompletableFuture<String> f : chain) {
            out.append(' ').append(f.join());
        }
        System.out.println(out);
    }

    static void parallelStreams() {
        Queue<Integer> mapped = new ConcurrentLinkedQueue<>();
        Map<String, Integer> byThread = Collections.synchronizedMap(new TreeMap<>());
        long sum = IntStream.range(0, 160).parallel().map(i -> {
            mapped.add(i);
            byThread.merge(label(), 1, Integer::sum);
            return i * i;
        }).asLongStream().sum();
        System.out.println("parallel map sum " + sum + ", order " + ranges(mapped) + ", by thread " + byThread);
        List<Integer> forEach = Collections.synchronizedList(new ArrayList<>());
        IntStream.range(0, 64).parallel().forEach(forEach::add);
        List<Integer> collected = IntStream.range(0, 64).parallel().map(i -> i * 3).boxed()
                .collect(Collectors.toList());
        synchronized (forEach) {
            System.out.println("parallel forEach order " + ranges(forEach) + "; collected in order "
                    + collected.equals(IntStream.range(0, 64).map(i -> i * 3).boxed().collect(Collectors.toList())));
        }
    }
}
