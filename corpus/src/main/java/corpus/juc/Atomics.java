package corpus.juc;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Atomics whose outcome depends on the interleaving: tickets drawn with getAndIncrement, a
 * compare-and-set retry loop building a chain, a flag only one thread wins.
 */
public final class Atomics {
    public static void main(String[] args) throws Exception {
        AtomicInteger tickets = new AtomicInteger();
        AtomicLong sum = new AtomicLong();
        AtomicReference<String> chain = new AtomicReference<>("");
        AtomicBoolean winner = new AtomicBoolean();
        String[] byTicket = new String[400];
        String[] won = new String[1];
        Thread[] threads = new Thread[4];
        for (int t = 0; t < threads.length; t++) {
            String who = "t" + t;
            threads[t] = new Thread(() -> {
                for (int i = 0; i < 100; i++) {
                    int ticket = tickets.getAndIncrement();
                    byTicket[ticket] = who;
                    sum.addAndGet(ticket * (long) who.hashCode());
                    if (i % 10 == 0) {
                        String prev;
                        do {
                            prev = chain.get();
                        } while (!chain.compareAndSet(prev, prev + who.charAt(1)));
                    }
                }
                if (winner.compareAndSet(false, true)) {
                    won[0] = who;
                }
            });
        }
        for (Thread t : threads) {
            t.start();
        }
        for (Thread t : threads) {
            t.join();
        }
        StringBuilder order = new StringBuilder();
        for (String s : byTicket) {
            order.append(s.charAt(1));
        }
        System.out.println("tickets " + order);
        System.out.println("sum " + sum.get() + " chain " + chain.get() + " winner " + won[0]);
    }
}
