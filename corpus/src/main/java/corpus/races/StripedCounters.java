package corpus.races;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Counters striped over a {@code long[]}, as JCTools' {@code ConcurrentAutoTable} keeps them:
 * each increment reads a cell plainly, then compare-and-sets it through a {@code VarHandle}, and
 * tries again if another thread got there first. The plain read races with the other threads'
 * compare-and-sets, and which of them fail shows it: each thread counts its failures and folds
 * the values it read into a checksum. Exercises a race on primitive array elements whose writes
 * are all atomic: the first recording learns the class, the next orders its elements.
 */
public final class StripedCounters {
    private static final VarHandle CELLS = MethodHandles.arrayElementVarHandle(long[].class);
    private static final int THREADS = 4;

    private StripedCounters() {
    }

    public static void main(String[] args) throws Exception {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 20_000;
        long[] cells = new long[4];
        // The threads' results, kept where the watch does not look: their plain stores into one
        // array would count as a race of their own.
        AtomicLongArray fails = new AtomicLongArray(THREADS);
        AtomicLongArray sums = new AtomicLongArray(THREADS);
        Thread[] threads = new Thread[THREADS];
        for (int t = 0; t < THREADS; t++) {
            int id = t;
            threads[t] = new Thread(() -> {
                long sum = 0;
                long failed = 0;
                for (int i = 0; i < n; i++) {
                    int cell = (id + i) % cells.length;
                    while (true) {
                        long old = cells[cell];
                        if (CELLS.compareAndSet(cells, cell, old, old + 1)) {
                            sum = sum * 31 + old;
                            break;
                        }
                        failed++;
                    }
                }
                fails.set(id, failed);
                sums.set(id, sum);
            });
        }
        for (Thread t : threads) {
            t.start();
        }
        for (Thread t : threads) {
            t.join();
        }
        System.out.println("total " + Arrays.stream(cells).sum() + ", failed compare-and-sets " + fails + ", checksums " + sums);
    }
}
