package corpus.threads;

import corpus.Expect;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * Static synchronized methods in the shapes the verifier and the JIT compilers meet: loops whose
 * stack map frames add and drop locals (a long and a double among them), a return from inside a
 * loop, an exception thrown out of the method and one caught inside it, reentrancy, a
 * {@code VarHandle} access (whose operands a recording parks in locals of its own), and a method
 * called often enough to be compiled. Four threads contend for the class's monitor.
 *
 * <p>The first line is the same for every interleaving; the second is the order the threads
 * took the monitor in.
 */
@Expect
public final class StaticMonitors {
    private static final int THREADS = 4;
    private static final int ROUNDS = 300;
    private static final int BUMPS = 50_000;
    private static final StringBuilder ORDER = new StringBuilder();
    private static long total;
    private static double weight;
    private static int bumps;
    private static volatile long flips;
    private static final VarHandle FLIPS;

    static {
        try {
            FLIPS = MethodHandles.lookup().findStaticVarHandle(StaticMonitors.class, "flips", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    static synchronized long add(long by, double w, int times) {
        for (int i = 0; i < times; i++) {
            long before = total;
            total = before + by;
            if ((i & 1) == 0) {
                double d = w * i;
                weight += d;
            }
        }
        return total;
    }

    static synchronized int firstMultiple(int[] values, int of) {
        for (int v : values) {
            if (v % of == 0) {
                return v;
            }
        }
        return -1;
    }

    static synchronized void failIfOdd(int n) {
        if (n % 2 != 0) {
            throw new IllegalStateException("odd " + n);
        }
    }

    static synchronized int parsed(String s) {
        try {
            return Integer.parseInt(s);
        } catch (NumberFormatException e) {
            return -s.length();
        }
    }

    static synchronized boolean flip(long expected) {
        return FLIPS.compareAndSet(expected, expected + 1);
    }

    static synchronized void log(String who) {
        ORDER.append(who);
        bump();
    }

    static synchronized int bump() {
        return ++bumps;
    }

    public static void main(String[] args) throws Exception {
        Thread[] threads = new Thread[THREADS];
        int[] failures = new int[THREADS];
        long[] found = new long[THREADS];
        for (int t = 0; t < THREADS; t++) {
            int id = t;
            threads[t] = new Thread(() -> {
                int[] values = {3, 5, 7, 10 + id, 14, 21};
                for (int r = 0; r < ROUNDS; r++) {
                    add(r, 0.5, 3);
                    found[id] += firstMultiple(values, 2) + parsed(r % 3 == 0 ? "x" + r : Integer.toString(r));
                    try {
                        failIfOdd(r + id);
                    } catch (IllegalStateException e) {
                        failures[id]++;
                    }
                    while (!flip(flips)) {
                        Thread.onSpinWait();
                    }
                    if (r % 10 == 0) {
                        log(Integer.toString(id));
                    }
                }
                for (int i = 0; i < BUMPS; i++) {
                    bump();
                }
            });
        }
        for (Thread t : threads) {
            t.start();
        }
        long sum = 0;
        int failed = 0;
        for (int t = 0; t < THREADS; t++) {
            threads[t].join();
            sum += found[t];
            failed += failures[t];
        }
        System.out.println("total " + total + ", weight " + weight + ", found " + sum + ", failed " + failed + ", bumps " + bumps + ", flips " + flips);
        System.out.println("order " + ORDER);
    }
}
