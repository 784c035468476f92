package corpus.threads;

import corpus.Expect;

/**
 * A daemon thread that wakes the main thread inside a synchronized block, takes its own monitor
 * many times more before it leaves the block, then spins on that monitor for good. Every one of
 * those acquisitions is relaxed (the daemon owned the monitor last), so the exit cuts the
 * recording with them counted and unwritten; the main thread waits for the block's monitor
 * itself, not for any event. A replay must let the daemon take its counted acquisitions and leave
 * the block, or the main thread never gets the monitor back.
 */
@Expect
public final class CutInsideLock {
    private static final Object LOCK = new Object();
    private static boolean ready;
    private static long spins;

    public static void main(String[] args) throws Exception {
        Thread daemon = new Thread(() -> {
            Object mine = new Object();
            synchronized (LOCK) {
                ready = true;
                LOCK.notifyAll();
                for (int i = 0; i < 1000; i++) {
                    synchronized (mine) {
                        spins++;
                    }
                }
            }
            while (true) {
                synchronized (mine) {
                    spins++;
                }
            }
        }, "daemon");
        daemon.setDaemon(true);
        synchronized (LOCK) {
            daemon.start();
            while (!ready) {
                LOCK.wait();
            }
        }
        System.out.println("main got the monitor back");
    }
}
