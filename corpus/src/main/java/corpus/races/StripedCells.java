package corpus.races;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A striped adder kept as {@code java.util.concurrent}'s {@code Striped64} keeps it, and as the
 * libraries that copy it do (Guava's, the counter of Ehcache's map): each thread's cell is put
 * into a slot of a plain array while a compare-and-set spin lock is held, and a sum reads the
 * slots plainly, without the lock. Here each adder takes its cell out again every few additions,
 * folding its value into the base, so the slots fill and empty all the time; a reader sums all
 * along and folds how many cells it met into a checksum. The plain reads race with the plain
 * stores, and the race is in every run, not only a learning one: a class that makes atomic
 * accesses orders its reference array elements, as the JDK's concurrency code does.
 */
public final class StripedCells {
    private static final VarHandle BUSY;
    private static final VarHandle VALUE;
    private static final int ADDERS = 3;

    static {
        try {
            BUSY = MethodHandles.lookup().findVarHandle(StripedCells.class, "busy", int.class);
            VALUE = MethodHandles.lookup().findVarHandle(Cell.class, "value", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    static final class Cell {
        volatile long value;

        Cell(long value) {
            this.value = value;
        }
    }

    private final Cell[] cells = new Cell[ADDERS];
    private volatile long base;
    private volatile int busy;

    private void lock() {
        while (!BUSY.compareAndSet(this, 0, 1)) {
            Thread.onSpinWait();
        }
    }

    private void unlock() {
        busy = 0;
    }

    void add(int slot, long x) {
        Cell c = cells[slot];
        if (c != null) {
            long v = c.value;
            if (VALUE.compareAndSet(c, v, v + x)) {
                return;
            }
        }
        lock();
        try {
            if (cells[slot] == null) {
                cells[slot] = new Cell(x);
            } else {
                VALUE.getAndAdd(cells[slot], x);
            }
        } finally {
            unlock();
        }
    }

    /** Takes the cell of {@code slot} out, its value folded into the base. */
    void retire(int slot) {
        lock();
        try {
            Cell c = cells[slot];
            if (c != null) {
                cells[slot] = null;
                base = base + c.value;
            }
        } finally {
            unlock();
        }
    }

    /** The sum now, and in its low bits how many cells it met. */
    long[] sum() {
        long sum = base;
        long met = 0;
        for (Cell c : cells) {
            if (c != null) {
                sum += c.value;
                met++;
            }
        }
        return new long[] {sum, met};
    }

    public static void main(String[] args) throws Exception {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 20_000;
        StripedCells adder = new StripedCells();
        Thread[] threads = new Thread[ADDERS];
        for (int t = 0; t < ADDERS; t++) {
            int slot = t;
            threads[t] = new Thread(() -> {
                for (int i = 1; i <= n; i++) {
                    adder.add(slot, 1);
                    if (i % 7 == 0) {
                        adder.retire(slot);
                    }
                }
            });
        }
        long[] checksum = new long[1];
        Thread reader = new Thread(() -> {
            for (int i = 0; i < n; i++) {
                long[] s = adder.sum();
                checksum[0] = checksum[0] * 31 + s[1];
            }
        });
        reader.start();
        for (Thread t : threads) {
            t.start();
        }
        for (Thread t : threads) {
            t.join();
        }
        reader.join();
        System.out.println("total " + adder.sum()[0] + ", cells met " + Long.toHexString(checksum[0]));
    }
}
