package corpus.juc;

import java.lang.reflect.Method;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.LongAdder;

/**
 * Virtual threads (JDK 21 and later; reached reflectively, as the corpus is compiled for 17)
 * contending on a LongAdder and a ConcurrentHashMap's counter, whose striped cells a thread picks
 * by its ThreadLocalRandom probe, and yielding so the scheduler moves them between carrier
 * threads. Each then draws a number from its ThreadLocalRandom. Prints the totals and the draws.
 * On an older JDK it says virtual threads are unavailable.
 */
public final class VirtualThreadCounters {
    public static void main(String[] args) throws Exception {
        Method ofVirtual;
        Method start;
        try {
            ofVirtual = Thread.class.getMethod("ofVirtual");
            start = Class.forName("java.lang.Thread$Builder").getMethod("start", Runnable.class);
        } catch (NoSuchMethodException | ClassNotFoundException e) {
            System.out.println("virtual threads unavailable on this JDK");
            return;
        }
        Object builder = ofVirtual.invoke(null);
        LongAdder adder = new LongAdder();
        Map<Integer, Integer> map = new ConcurrentHashMap<>();
        int[] draws = new int[8];
        Thread[] threads = new Thread[draws.length];
        for (int t = 0; t < threads.length; t++) {
            int who = t;
            threads[t] = (Thread) start.invoke(builder, (Runnable) () -> {
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
