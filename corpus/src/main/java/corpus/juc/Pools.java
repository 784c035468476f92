package corpus.juc;

import static corpus.juc.Interleavings.label;

import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorCompletionService;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.Future;
import java.util.concurrent.RecursiveTask;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import corpus.Expect;

/**
 * Thread pools and which of their workers ran what, in which order: a fixed pool's invokeAll, a
 * cached pool reusing idle workers or starting new ones, a scheduled pool's periodic and delayed
 * tasks interleaved, an ExecutorCompletionService's completion order, and the leaves of a
 * RecursiveTask on a ForkJoinPool and on the common pool.
 */
@Expect
public final class Pools {
    public static void main(String[] args) throws Exception {
        fixedPool();
        cachedPool();
        scheduledPool();
        completionService();
        forkJoin("ForkJoinPool(3)", new ForkJoinPool(3));
        forkJoin("common pool", ForkJoinPool.commonPool());
    }

    static void fixedPool() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(3);
        AtomicInteger tickets = new AtomicInteger();
        List<Callable<String>> tasks = new ArrayList<>();
        for (int i = 0; i < 24; i++) {
            int spin = i % 3;
            tasks.add(() -> {
                for (int k = 0; k < spin; k++) {
                    Thread.yield();
                }
                return label() + ":" + tickets.getAndIncrement();
            });
        }
        StringBuilder out = new StringBuilder("fixed pool invokeAll, worker:ticket by task:");
        for (Future<String> f : pool.invokeAll(tasks)) {
            out.append(' ').append(f.get());
        }
        pool.shutdown();
        out.append("; terminated ").append(pool.awaitTermination(1, TimeUnit.MINUTES));
        System.out.println(out);
    }

    /** Three waves of five tasks: a wave reuses the workers left idle by the last, or starts new ones. */
    static void cachedPool() throws Exception {
        ExecutorService pool = Executors.newCachedThreadPool();
        StringBuilder out = new StringBuilder("cached pool workers by wave:");
        for (int wave = 0; wave < 3; wave++) {
            List<Future<String>> futures = new ArrayList<>();
            for (int i = 0; i < 5; i++) {
                futures.add(pool.submit(() -> {
                    Thread.yield();
                    return label();
                }));
            }
            out.append(' ');
            for (Future<String> f : futures) {
                out.append(f.get()).append(',');
            }
            out.setLength(out.length() - 1);
        }
        pool.shutdown();
        out.append("; terminated ").append(pool.awaitTermination(1, TimeUnit.MINUTES));
        System.out.println(out);
    }

    /**
     * A fixed-rate task (F) and a fixed-delay task (D), every millisecond, log their first eight
     * runs and are then cancelled; four one-shot tasks (a-d) delayed 0-3 ms fall in between.
     */
    static void scheduledPool() throws Exception {
        ScheduledExecutorService pool = Executors.newScheduledThreadPool(2);
        StringBuilder log = new StringBuilder();
        CountDownLatch enough = new CountDownLatch(2);
        AtomicInteger fixedRuns = new AtomicInteger();
        AtomicInteger delayRuns = new AtomicInteger();
        ScheduledFuture<?> rate = pool.scheduleAtFixedRate(() -> periodic(log, 'F', fixedRuns, enough), 0, 1,
                TimeUnit.MILLISECONDS);
        ScheduledFuture<?> delay = pool.scheduleWithFixedDelay(() -> periodic(log, 'D', delayRuns, enough), 0, 1,
                TimeUnit.MILLISECONDS);
        List<ScheduledFuture<?>> once = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            char c = (char) ('a' + i);
            once.add(pool.schedule(() -> {
                synchronized (log) {
                    log.append(c);
                }
            }, i, TimeUnit.MILLISECONDS));
        }
        enough.await();
        boolean cancelled = rate.cancel(false) & delay.cancel(false);
        for (ScheduledFuture<?> f : once) {
            f.get();
        }
        pool.shutdown();
        boolean terminated = pool.awaitTermination(1, TimeUnit.MINUTES);
        synchronized (log) {
            System.out.println("scheduled pool: " + log + "; cancelled " + cancelled + ", terminated " + terminated);
        }
    }

    private static void periodic(StringBuilder log, char c, AtomicInteger runs, CountDownLatch enough) {
        int run = runs.incrementAndGet();
        if (run <= 8) {
            synchronized (log) {
                log.append(c);
            }
        }
        if (run == 8) {
            enough.countDown();
        }
    }

    /** Twelve tasks of uneven length on three workers: the order in which they completed. */
    static void completionService() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(3);
        ExecutorCompletionService<Integer> ecs = new ExecutorCompletionService<>(pool);
        for (int i = 0; i < 12; i++) {
            int id = i;
            ecs.submit(() -> {
                long x = id;
                for (int k = 0; k < (id % 4) * 20_000; k++) {
                    x = x * 6364136223846793005L + 1442695040888963407L;
                }
                Thread.yield();
                return x == 42 ? -1 : id;
            });
        }
        StringBuilder out = new StringBuilder("completion order:");
        for (int i = 0; i < 12; i++) {
            out.append(' ').append(ecs.take().get());
        }
        pool.shutdown();
        out.append("; terminated ").append(pool.awaitTermination(1, TimeUnit.MINUTES));
        System.out.println(out);
    }

    /** Sums 0..1023 by halves down to 16 leaves of 64; each leaf logs its index and worker. */
    static final class Sum extends RecursiveTask<Long> {
        private final int from;
        private final int to;
        private final Queue<String> leaves;

        Sum(int from, int to, Queue<String> leaves) {
            this.from = from;
            this.to = to;
            this.leaves = leaves;
        }

        @Override
        protected Long compute() {
            if (to - from <= 64) {
                long s = 0;
                for (int i = from; i < to; i++) {
                    s += i;
                }
                leaves.add(from / 64 + ":" + label());
                return s;
            }
            int mid = (from + to) >>> 1;
            Sum left = new Sum(from, mid, leaves);
            Sum right = new Sum(mid, to, leaves);
            left.fork();
            return right.compute() + left.join();
        }
    }

    static void forkJoin(String name, ForkJoinPool pool) throws Exception {
        Queue<String> leaves = new ConcurrentLinkedQueue<>();
        long sum = pool.invoke(new Sum(0, 1024, leaves));
        if (pool != ForkJoinPool.commonPool()) {
            pool.shutdown();
            pool.awaitTermination(1, TimeUnit.MINUTES);
        }
        System.out.println(name + " sum " + sum + ", leaf:worker " + String.join(" ", leaves));
    }
}
