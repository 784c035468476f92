package corpus.juc;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * Virtual threads (JDK 21 and later) that end with work only they see: each counts on its own
 * atomic, whose updates after the first a recorder need not order, then ends. The main thread
 * joins each one, then prints every count and whether the threads are still alive. On an older
 * JDK it says virtual threads are unavailable.
 */
public final class VirtualThreadEnds {
    public static void main(String[] args) throws Exception {
        Function<Runnable, Thread> startVirtual = Interleavings.virtualThreadStarter();
        if (startVirtual == null) {
            System.out.println("virtual threads unavailable on this JDK");
            return;
        }
        AtomicInteger[] counts = new AtomicInteger[4];
        Thread[] threads = new Thread[counts.length];
        for (int t = 0; t < counts.length; t++) {
            AtomicInteger count = counts[t] = new AtomicInteger();
            int upTo = 100 * (t + 1);
            threads[t] = startVirtual.apply(() -> {
                for (int i = 0; i < upTo; i++) {
                    count.incrementAndGet();
                }
            });
        }
        boolean alive = false;
        for (Thread t : threads) {
            t.join();
            alive |= t.isAlive();
        }
        StringBuilder out = new StringBuilder("counts");
        for (AtomicInteger c : counts) {
            out.append(' ').append(c.get());
        }
        System.out.println(out + ", any alive after join " + alive);
    }
}
