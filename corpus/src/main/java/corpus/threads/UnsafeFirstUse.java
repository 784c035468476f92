package corpus.threads;

import java.lang.reflect.Field;

import sun.misc.Unsafe;

/**
 * Four threads make their first {@code sun.misc.Unsafe} memory accesses at once, each through
 * another method, as a library's pool threads do when it starts. From JDK 23 on, the first of
 * them prints a warning naming its method and caller; which one is first is a race. Expected: a
 * replay prints the recording's warning, from the recording's thread.
 */
public final class UnsafeFirstUse {
    private UnsafeFirstUse() {
    }

    public static void main(String[] args) throws Exception {
        Field f = Unsafe.class.getDeclaredField("theUnsafe");
        f.setAccessible(true);
        Unsafe u = (Unsafe) f.get(null);
        long[] sums = new long[4];
        Thread[] threads = new Thread[4];
        for (int t = 0; t < threads.length; t++) {
            int id = t;
            threads[t] = new Thread(() -> sums[id] = use(u, id), "unsafe-" + t);
        }
        for (Thread t : threads) {
            t.start();
        }
        for (Thread t : threads) {
            t.join();
        }
        long total = 0;
        for (long s : sums) {
            total += s;
        }
        System.out.println("sum " + total);
    }

    private static long use(Unsafe u, int id) {
        long[] heap = {id};
        long first = switch (id) {
            case 0 -> u.getLong(heap, Unsafe.ARRAY_LONG_BASE_OFFSET);
            case 1 -> u.getInt(heap, Unsafe.ARRAY_LONG_BASE_OFFSET);
            case 2 -> u.getLongVolatile(heap, Unsafe.ARRAY_LONG_BASE_OFFSET);
            default -> u.getByte(heap, Unsafe.ARRAY_LONG_BASE_OFFSET);
        };
        long address = u.allocateMemory(8 * 64);
        try {
            long sum = first;
            for (int i = 0; i < 64; i++) {
                switch (id) {
                    case 0 -> u.putLong(address + 8L * i, i);
                    case 1 -> u.putInt(address + 8L * i, i);
                    case 2 -> u.setMemory(address + 8L * i, 8, (byte) i);
                    default -> u.putByte(address + 8L * i, (byte) i);
                }
                sum += u.getByte(address + 8L * i);
            }
            return sum;
        } finally {
            u.freeMemory(address);
        }
    }
}
