package corpus.threads;

/**
 * Not data-race free: two readers test a shared cache field and read it again, as a value cache
 * does ({@code if (cache != null) use(cache)}), while a writer keeps replacing it. What each
 * reader adds up depends on the interleaving.
 */
public final class RacyCache {
    static int[] cache;

    public static void main(String[] args) throws Exception {
        Thread writer = new Thread(() -> {
            for (int i = 1; i <= 20_000; i++) {
                cache = new int[i % 7];
            }
        });
        long[] sums = new long[2];
        Thread[] readers = new Thread[2];
        for (int r = 0; r < 2; r++) {
            int me = r;
            readers[r] = new Thread(() -> {
                for (int i = 0; i < 100_000; i++) {
                    if (cache != null) {
                        sums[me] += cache.length + 1;
                    }
                }
            });
        }
        writer.start();
        for (Thread t : readers) {
            t.start();
        }
        writer.join();
        for (Thread t : readers) {
            t.join();
        }
        System.out.println("sums " + sums[0] + " " + sums[1]);
    }
}
