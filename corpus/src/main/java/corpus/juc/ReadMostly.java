package corpus.juc;

import java.util.Arrays;

/**
 * Threads reading shared fields far more often than another thread writes them: the reads
 * Reprise records without taking their slot's lock. Three readers read a volatile version and a
 * published array 20,000 times each, counting which version each read saw, while a writer
 * publishes 400 versions. Every eighth read, a reader also writes a volatile field of a fresh
 * object, as H2 copies a page: writes on slots no one used yet, each ordered after the program's
 * last ordered event, interleave with the reads and the versions' writes. Prints, per reader, how
 * many versions its reads saw and a checksum of what they read, which the interleaving decides.
 */
public final class ReadMostly {
    private static final int READERS = 3;
    private static final int READS = 20_000;
    private static final int VERSIONS = 400;
    private static volatile int version;
    private static volatile long[] published = {0};
    /** Where the writer leaves its busy work, so the JIT keeps it. */
    private static long work;

    /** A fresh object per copy, as H2's pages are. */
    private static final class Copy {
        volatile long pos;
    }

    public static void main(String[] args) throws Exception {
        String[] seen = new String[READERS];
        Thread[] readers = new Thread[READERS];
        for (int t = 0; t < READERS; t++) {
            int who = t;
            readers[t] = new Thread(() -> {
                int[] perVersion = new int[VERSIONS + 1];
                long sum = 0;
                for (int i = 0; i < READS; i++) {
                    int v = version;
                    long[] p = published;
                    perVersion[v]++;
                    sum = sum * 31 + p[0] + v;
                    if (i % 8 == 0) {
                        new Copy().pos = i;
                    }
                }
                long versionsSeen = Arrays.stream(perVersion).filter(n -> n > 0).count();
                seen[who] = "reader " + who + ": " + versionsSeen + " versions seen, checksum "
                        + Long.toHexString(sum * 31 + Arrays.hashCode(perVersion));
            });
        }
        Thread writer = new Thread(() -> {
            long busy = 0;
            for (int v = 1; v <= VERSIONS; v++) {
                published = new long[] {v * 1000L};
                version = v;
                for (int i = 0; i < 3_000; i++) {
                    busy = busy * 31 + i;
                }
            }
            work = busy;
        });
        for (Thread t : readers) {
            t.start();
        }
        writer.start();
        for (Thread t : readers) {
            t.join();
        }
        writer.join();
        for (String s : seen) {
            System.out.println(s);
        }
        System.out.println("last version " + version + ", work " + (work != 0));
    }
}
