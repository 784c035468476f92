package corpus.threads;

import corpus.Expect;

/**
 * A daemon thread that waits on a monitor for good, and the main thread that takes the monitor
 * once the daemon waits, then ends the program. The exit cuts the recording with the daemon in
 * its wait, the monitor released: a replay must not hold the monitor for it.
 */
@Expect
public final class CutInWait {
    private static final Object LOCK = new Object();
    private static volatile boolean waiting;

    public static void main(String[] args) throws Exception {
        Thread waiter = new Thread(() -> {
            synchronized (LOCK) {
                waiting = true;
                while (true) {
                    try {
                        LOCK.wait();
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            }
        }, "waiter");
        waiter.setDaemon(true);
        waiter.start();
        while (!waiting) {
            Thread.onSpinWait();
        }
        synchronized (LOCK) {
            System.out.println("main took the monitor the waiter released");
        }
    }
}
