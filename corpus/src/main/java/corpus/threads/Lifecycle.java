package corpus.threads;

import corpus.Expect;
import java.util.Timer;
import java.util.TimerTask;

/**
 * Thread life cycle: names and ids, sleep, interrupt and isInterrupted, isAlive, a Timer, an
 * uncaught exception in a thread, a daemon thread still running at exit, and System.exit from a
 * thread that is not main.
 */
@Expect(status = 42)
public final class Lifecycle {
    public static void main(String[] args) throws Exception {
        Thread sleeper = new Thread(() -> {
            try {
                Thread.sleep(10_000);
                System.out.println("sleeper woke up");
            } catch (InterruptedException e) {
                System.out.println("sleeper interrupted, flag now " + Thread.currentThread().isInterrupted());
            }
        }, "sleeper");
        sleeper.start();
        Thread.sleep(20);
        System.out.println("sleeper alive " + sleeper.isAlive() + " name " + sleeper.getName());
        sleeper.interrupt();
        sleeper.join();
        System.out.println("sleeper alive after join " + sleeper.isAlive());

        Thread failing = new Thread(() -> {
            throw new IllegalStateException("failure in thread at " + System.nanoTime());
        }, "failing");
        failing.start();
        failing.join();

        Timer timer = new Timer("ticker", true);
        int[] ticks = new int[1];
        Object done = new Object();
        timer.scheduleAtFixedRate(new TimerTask() {
            @Override
            public void run() {
                synchronized (done) {
                    ticks[0]++;
                    System.out.println("tick " + ticks[0] + " at " + System.currentTimeMillis() % 100000);
                    if (ticks[0] == 5) {
                        done.notifyAll();
                    }
                }
            }
        }, 0, 5);
        synchronized (done) {
            while (ticks[0] < 5) {
                done.wait();
            }
        }
        timer.cancel();

        Thread daemon = new Thread(() -> {
            long n = 0;
            while (true) {
                n++;
                if (n % 1_000_000 == 0) {
                    Thread.yield();
                }
            }
        }, "spinner");
        daemon.setDaemon(true);
        daemon.start();

        Thread exiter = new Thread(() -> {
            System.out.println("exiting from " + Thread.currentThread().getName() + " at " + System.nanoTime());
            System.exit(42);
        }, "exiter");
        exiter.start();
        exiter.join();
        System.out.println("not reached");
    }
}
