package corpus.threads;

import java.util.concurrent.CountDownLatch;

/**
 * The program exits while another thread is still inside a static initializer that keeps
 * reading the clock: the exit cuts the initializer's events short. Prints how many rounds it had
 * run when main looked, and exits with status 7.
 */
public final class ExitDuringInitializer {
    static final CountDownLatch STARTED = new CountDownLatch(1);
    static volatile int rounds;

    static final class Slow {
        static final long LAST;

        static {
            STARTED.countDown();
            long last = 0;
            for (int i = 0; i < 1_000_000; i++) {
                last = System.nanoTime();
                rounds = i + 1;
                try {
                    Thread.sleep(1);
                } catch (InterruptedException e) {
                    break;
                }
            }
            LAST = last;
        }
    }

    private ExitDuringInitializer() {
    }

    public static void main(String[] args) throws InterruptedException {
        Thread user = new Thread(() -> System.out.println("never printed " + Slow.LAST), "user");
        user.setDaemon(true);
        user.start();
        STARTED.await();
        Thread.sleep(200);
        System.out.println("the initializer had run " + rounds + " rounds");
        System.out.flush();
        System.exit(7);
    }
}
