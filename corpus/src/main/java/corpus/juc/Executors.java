package corpus.juc;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A fixed thread pool running small tasks that draw tickets from an atomic and log, under a
 * lock, which worker ran which task with which ticket.
 */
public final class Executors {
    public static void main(String[] args) throws Exception {
        ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(3);
        AtomicInteger tickets = new AtomicInteger();
        List<String> log = new ArrayList<>();
        List<Future<Integer>> results = new ArrayList<>();
        for (int task = 0; task < 30; task++) {
            int id = task;
            results.add(pool.submit(() -> {
                int ticket = tickets.incrementAndGet();
                synchronized (log) {
                    log.add("task " + id + " ticket " + ticket + " on " + Thread.currentThread().getName());
                }
                return ticket * id;
            }));
        }
        long sum = 0;
        for (Future<Integer> f : results) {
            sum += f.get();
        }
        pool.shutdown();
        System.out.println("terminated " + pool.awaitTermination(10, TimeUnit.SECONDS));
        synchronized (log) {
            log.forEach(System.out::println);
        }
        System.out.println("sum " + sum);
    }
}
