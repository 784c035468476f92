package corpus.threads;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.List;

/**
 * Synchronization actions that throw, inside {@code synchronized} blocks and methods and caught
 * right there: a volatile field read through a null reference, an array VarHandle read past the
 * end. Each thread counts what it caught and logs its turns in lock order; the monitor must be
 * free again after each throw, or the other threads would wait forever. The output is the
 * interleaving, then per thread how many of each exception it caught where it expected them.
 */
public final class ThrowingActions {
    private static final VarHandle INTS = MethodHandles.arrayElementVarHandle(int[].class);
    private static final Object LOCK = new Object();
    private static final StringBuilder ORDER = new StringBuilder();

    private volatile int value = 1;
    private final int[] cells = new int[4];

    public static void main(String[] args) throws Exception {
        int threads = args.length > 0 ? Integer.parseInt(args[0]) : 3;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 200;
        ThrowingActions shared = new ThrowingActions();
        int[][] caught = new int[threads][2];
        List<Thread> all = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int me = t;
            all.add(new Thread(() -> {
                for (int i = 0; i < rounds; i++) {
                    ThrowingActions target = i % 3 == 0 ? null : shared;
                    caught[me][0] += readUnderLock(target, me);
                    caught[me][1] += shared.cellPastTheEnd(i % 6);
                }
            }));
        }
        for (Thread th : all) {
            th.start();
        }
        for (Thread th : all) {
            th.join();
        }
        System.out.println(ORDER.length() + " turns: " + ORDER);
        for (int t = 0; t < threads; t++) {
            System.out.println("thread " + t + " caught " + caught[t][0] + " null reads, " + caught[t][1] + " reads past the end");
        }
    }

    /** A volatile read through {@code target}, null every third round, in a synchronized block. */
    private static int readUnderLock(ThrowingActions target, int me) {
        synchronized (LOCK) {
            ORDER.append((char) ('a' + me));
            try {
                return target.value - 1;
            } catch (NullPointerException e) {
                return 1;
            }
        }
    }

    /** An array VarHandle read at {@code index}, past the end for 4 and 5, in a synchronized method. */
    private synchronized int cellPastTheEnd(int index) {
        try {
            INTS.getVolatile(cells, index);
            return 0;
        } catch (IndexOutOfBoundsException e) {
            return 1;
        }
    }
}
