package corpus.juc;

import java.lang.reflect.Method;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Virtual threads (JDK 21 and later; reached reflectively, as the corpus is compiled for 17) that
 * end with work only they see: each counts on its own atomic, whose updates after the first a
 * recorder need not order, then ends. The main thread joins each one, then prints every count
 * and whether the threads are still alive. On an older JDK it says virtual threads are
 * unavailable.
 */
public final class VirtualThreadEnds {
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
        AtomicInteger[] counts = new AtomicInteger[4];
        Thread[] threads = new Thread[counts.length];
        for (int t = 0; t < counts.length; t++) {
            AtomicInteger count = counts[t] = new AtomicInteger();
            int upTo = 100 * (t + 1);
            threads[t] = (Thread) start.invoke(builder, (Runnable) () -> {
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
