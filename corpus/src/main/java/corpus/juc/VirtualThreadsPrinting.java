package corpus.juc;

import java.util.function.Function;

/**
 * Virtual threads (JDK 21 and later) that print as they go, and sleep between their lines: a
 * virtual thread's write to the console blocks in a file operation, for which its carrier
 * compensates the scheduler, and whether the scheduler's count changes then depends on what its
 * other carriers do. Prints the interleaving of the threads' lines. On an older JDK it says
 * virtual threads are unavailable.
 */
public final class VirtualThreadsPrinting {
    public static void main(String[] args) throws Exception {
        Function<Runnable, Thread> startVirtual = Interleavings.virtualThreadStarter();
        if (startVirtual == null) {
            System.out.println("virtual threads unavailable on this JDK");
            return;
        }
        Thread[] threads = new Thread[6];
        for (int t = 0; t < threads.length; t++) {
            int who = t;
            threads[t] = startVirtual.apply(() -> {
                for (int line = 0; line < 5; line++) {
                    System.out.println("thread " + who + " line " + line);
                    try {
                        Thread.sleep(who + line);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
            });
        }
        for (Thread t : threads) {
            t.join();
        }
        System.out.println("all joined");
    }
}
