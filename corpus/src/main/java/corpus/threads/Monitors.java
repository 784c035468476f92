package corpus.threads;

import corpus.Expect;

/**
 * Every kind of monitor: static synchronized methods (the Class object), synchronized methods,
 * arrays and java.lang objects (a String literal, a Class, a boxed Integer) as locks, reentrancy;
 * while holding each, a thread appends to a shared log (itself guarded by its own monitor).
 */
@Expect
public final class Monitors {
    private static final StringBuilder LOG = new StringBuilder();
    private static final int[] ARRAY = new int[1];
    private static final String NAME = "literal";
    private static final Integer BOXED = 1000;
    private int instanceCount;

    private static void log(String entry) {
        synchronized (LOG) {
            LOG.append(entry).append(' ');
        }
    }

    static synchronized void viaStatic(String who) {
        log(who + ":S");
    }

    synchronized void viaMethod(String who) {
        instanceCount++;
        reenter(who);
    }

    synchronized void reenter(String who) {
        log(who + ":M" + instanceCount);
    }

    public static void main(String[] args) throws Exception {
        Monitors m = new Monitors();
        Thread[] threads = new Thread[4];
        for (int t = 0; t < threads.length; t++) {
            String who = "t" + t;
            threads[t] = new Thread(() -> {
                for (int i = 0; i < 15; i++) {
                    viaStatic(who);
                    m.viaMethod(who);
                    synchronized (ARRAY) {
                        ARRAY[0]++;
                        synchronized (Monitors.class) {
                            log(who + ":A" + ARRAY[0]);
                        }
                    }
                    synchronized (NAME) {
                        synchronized (BOXED) {
                            log(who + ":L");
                        }
                    }
                }
            });
        }
        for (Thread t : threads) {
            t.start();
        }
        for (Thread t : threads) {
            t.join();
        }
        synchronized (LOG) {
            System.out.println(LOG.toString().trim());
        }
    }
}
