package corpus.threads;

import corpus.Expect;
import java.util.concurrent.CountDownLatch;

/**
 * Two threads released together first use four classes in opposite orders, so which thread runs
 * each static initializer is a race the JVM decides anew each run. The program has no data
 * race: the JVM makes a class's other users wait for its initializer. Each initializer reads the
 * clock and takes a lock the threads also take between uses; one starts a thread of its own and
 * joins it. Prints what each initializer computed and the order the lock was taken in.
 */
@Expect
public final class InitializerRace {
    static final Object LOCK = new Object();
    static final StringBuilder TAKEN = new StringBuilder(); // guarded by LOCK

    static int take(String who) {
        synchronized (LOCK) {
            TAKEN.append(who).append(' ');
            return TAKEN.length();
        }
    }

    static final class A {
        static final long STAMP = System.nanoTime();
        static final int TURN = take("A");
    }

    static final class B {
        static final long STAMP = System.nanoTime();
        static final int TURN = take("B");
    }

    static final class C {
        static final long STAMP = System.nanoTime();
        static final int TURN = take("C");
    }

    /** Not a lambda of D's: its body would be D's method, which the thread could not run before D's initializer ends. */
    static final class Clock implements Runnable {
        long read;

        @Override
        public void run() {
            read = System.nanoTime();
        }
    }

    static final class D {
        static final long STAMP;
        static final int TURN;

        static {
            Clock clock = new Clock();
            Thread t = new Thread(clock, "clock");
            t.start();
            try {
                t.join();
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
            STAMP = clock.read;
            TURN = take("D");
        }
    }

    private InitializerRace() {
    }

    private static long use(int which) {
        return switch (which) {
            case 0 -> A.STAMP + A.TURN;
            case 1 -> B.STAMP + B.TURN;
            case 2 -> C.STAMP + C.TURN;
            default -> D.STAMP + D.TURN;
        };
    }

    public static void main(String[] args) throws InterruptedException {
        CountDownLatch go = new CountDownLatch(1);
        long[][] seen = new long[2][4];
        Thread[] users = new Thread[2];
        for (int u = 0; u < 2; u++) {
            int me = u;
            users[u] = new Thread(() -> {
                try {
                    go.await();
                } catch (InterruptedException e) {
                    return;
                }
                for (int i = 0; i < 4; i++) {
                    int which = me == 0 ? i : 3 - i;
                    seen[me][which] = use(which);
                    take(me == 0 ? "first" : "second");
                }
            }, me == 0 ? "first" : "second");
            users[u].start();
        }
        go.countDown();
        for (Thread t : users) {
            t.join();
        }
        System.out.println("stamps " + A.STAMP + " " + B.STAMP + " " + C.STAMP + " " + D.STAMP);
        System.out.println("turns " + A.TURN + " " + B.TURN + " " + C.TURN + " " + D.TURN);
        System.out.println("both saw the same: " + java.util.Arrays.equals(seen[0], seen[1]));
        synchronized (LOCK) {
            System.out.println("lock taken by " + TAKEN.toString().trim());
        }
    }
}
