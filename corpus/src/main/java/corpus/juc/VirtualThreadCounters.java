package corpus.juc;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Function;

/**
 * Virtual threads (JDK 21 and later) contending on a LongAdder and a ConcurrentHashMap's counter,
 * whose striped cells a thread picks by its ThreadLocalRandom probe, and yielding so the
 * scheduler moves them between carrier threads. Each then draws a number from its
 * ThreadLocalRandom. Prints the totals and the draws. On an older JDK it says virtual threads are
 * unavailable.
 */
public final class VirtualThreadCounters {
    public static void main(String[] args) throws Exception {
        Function<Runnable, Thread> startVirtual = Interleavings.virtualThreadStarter();
        if (startVirtual == null) {
            System.out.println("virtual threads unavailable on this JDK");
            return;
        }
        LongAdder adder = new LongAdder();
        Map<Integer, Integer> map = new ConcurrentHashMap<>();
        int[] draws = new int[8];
        Thread[] threads = new Thread[draws.length];
        for (int t = 0; t < threads.length; t++) {
            int who = t;
            threads[t] = startVirtual.apply(() -> {
                for (int i = 0; i < 2000; i++) {
                    adder.increment();
                    map.merge((who + i) % 5, 1, Integer::sum);
                    if (i % 100 == 0) {
                        Thread.yield();
                    }
                }
                draws[who] = ThreadLocalRandom.current().nextInt(1000);
            });
        }
        for (Thread t : threads) {
            t.join();
        }
        StringBuilder out = new StringBuilder("sum " + adder.sum() + ", map " + new TreeMap<>(map) + ", draws");
        for (int d : draws) {
            out.append(' ').append(d);
        }
        System.out.println(out);
    }
}
