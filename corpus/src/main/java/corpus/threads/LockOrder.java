package corpus.threads;

import corpus.Expect;
import java.util.ArrayList;
import java.util.List;

/**
 * Threads increment a shared counter under a lock and print, in lock order, who got which value:
 * the output is the interleaving.
 */
@Expect
public final class LockOrder {
    private static final Object LOCK = new Object();
    private static int counter;

    public static void main(String[] args) throws Exception {
        int threads = args.length > 0 ? Integer.parseInt(args[0]) : 4;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 50;
        List<Thread> all = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            String name = "worker-" + t;
            Thread th = new Thread(() -> {
                for (int i = 0; i < rounds; i++) {
                    synchronized (LOCK) {
                        counter++;
                        System.out.println(name + " " + counter);
                    }
                    if (i % 7 == 0) {
                        Thread.yield();
                    }
                }
            }, name);
            all.add(th);
        }
        for (Thread th : all) {
            th.start();
        }
        for (Thread th : all) {
            th.join();
        }
        System.out.println("total " + counter);
    }
}
