package corpus.threads;

import corpus.Expect;

/**
 * Daemon threads that never stop making synchronization events, each on monitors of its own:
 * a clock read, which is written; a short timed wait, written with its outcome; then many
 * monitor entries, counted and not written (RTO, whose exit keeps a thread's count). Main lets
 * them run, then ends the program. The exit flushes their streams while they run on, so past the
 * flush each thread writes events the recording drops and counts entries after them: what the
 * exit keeps of a thread's count must belong to its last flushed event, and a replay must end
 * each daemon where its stream ends, printing nothing of its own.
 */
@Expect(orders = "rto")
public final class BusyAtExit {
    private static final int THREADS = 4;
    private static final int ENTRIES = 20_000;
    private static long sink;

    public static void main(String[] args) throws Exception {
        for (int t = 0; t < THREADS; t++) {
            Thread busy = new Thread(BusyAtExit::spin, "busy " + t);
            busy.setDaemon(true);
            busy.start();
        }
        Thread.sleep(300);
        System.out.println("main ends the program while " + THREADS + " threads run");
    }

    private static void spin() {
        Object waitOn = new Object();
        Object entered = new Object();
        while (true) {
            long now = System.nanoTime();
            synchronized (waitOn) {
                try {
                    waitOn.wait(1);
                } catch (InterruptedException e) {
                    return;
                }
            }
            for (int i = 0; i < ENTRIES; i++) {
                synchronized (entered) {
                    now += i;
                }
            }
            sink = now;
        }
    }
}
