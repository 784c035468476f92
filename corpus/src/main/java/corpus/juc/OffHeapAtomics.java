package corpus.juc;

import java.lang.reflect.Field;
import java.nio.ByteBuffer;
import java.util.Arrays;

import corpus.Expect;
import sun.misc.Unsafe;

/**
 * Shared state off the heap, as lock-free libraries keep it (Agrona's ring buffers and counters,
 * Netty's pooled memory): four threads update one word of memory from {@code allocateMemory}, and
 * one word of a direct buffer reached by its address, with {@code Unsafe}'s volatile reads and
 * compare-and-sets on a null base. Each thread folds what it read into its own mix and counts its
 * failed compare-and-sets: the race. Expected: a replay's threads read the recording's values.
 */
@Expect(plainRunsDiffer = true)
public final class OffHeapAtomics {
    private static final int THREADS = 4;
    private static final int UPDATES = 5_000;

    private OffHeapAtomics() {
    }

    public static void main(String[] args) throws Exception {
        Field f = Unsafe.class.getDeclaredField("theUnsafe");
        f.setAccessible(true);
        Unsafe u = (Unsafe) f.get(null);
        long allocated = u.allocateMemory(64);
        u.putLongVolatile(null, allocated, 1L);
        ByteBuffer direct = ByteBuffer.allocateDirect(64);
        Field addressField = java.nio.Buffer.class.getDeclaredField("address");
        long buffer = u.getLong(direct, u.objectFieldOffset(addressField)) + 8;
        u.putLongVolatile(null, buffer, 1L);
        long[] mixes = new long[THREADS];
        long[] fails = new long[THREADS];
        Thread[] threads = new Thread[THREADS];
        for (int t = 0; t < THREADS; t++) {
            int id = t;
            threads[t] = new Thread(() -> {
                long mix = 0;
                for (int i = 0; i < UPDATES; i++) {
                    long word = (i & 1) == 0 ? allocated : buffer;
                    while (true) {
                        long v = u.getLongVolatile(null, word);
                        if (u.compareAndSwapLong(null, word, v, v * 3 + id)) {
                            mix = mix * 31 + v;
                            break;
                        }
                        fails[id]++;
                    }
                }
                mixes[id] = mix;
            });
        }
        for (Thread t : threads) {
            t.start();
        }
        for (Thread t : threads) {
            t.join();
        }
        System.out.println("memory " + Long.toHexString(u.getLongVolatile(null, allocated)) + ", buffer "
                + Long.toHexString(u.getLongVolatile(null, buffer)) + ", mixes " + Arrays.toString(mixes)
                + ", failed compare-and-sets " + Arrays.toString(fails));
        u.freeMemory(allocated);
    }
}
