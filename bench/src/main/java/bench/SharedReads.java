package bench;

/**
 * Not a workload of the suite: a measurement of what one recorded volatile read costs. THREADS
 * threads each read a volatile int READS times, three rounds, and print the last round's
 * nanoseconds per read; with {@code shared} they all read one object, else each its own. Other
 * threads are running, so no read is the main thread's alone (which takes no event). Run plain
 * and under {@code reprise record} (BENCHMARKS.md, "Where juc's recording cost is").
 */
public final class SharedReads {
    private SharedReads() {
    }

    private static final class Holder {
        volatile int value = 1;
    }

    public static void main(String[] args) throws InterruptedException {
        int threads = Integer.parseInt(args[0]);
        long reads = Long.parseLong(args[1]);
        boolean shared = args.length > 2 && args[2].equals("shared");
        Holder common = new Holder();
        long[] nanos = new long[threads];
        long[] sums = new long[threads];
        Thread[] workers = new Thread[threads];
        for (int t = 0; t < threads; t++) {
            int k = t;
            workers[t] = new Thread(() -> {
                Holder h = shared ? common : new Holder();
                long sum = 0;
                for (int round = 0; round < 3; round++) {
                    long start = System.nanoTime();
                    for (long i = 0; i < reads; i++) {
                        sum += h.value;
                    }
                    nanos[k] = System.nanoTime() - start;
                }
                sums[k] = sum;
            });
        }
        for (Thread w : workers) {
            w.start();
        }
        for (Thread w : workers) {
            w.join();
        }
        for (int t = 0; t < threads; t++) {
            System.out.printf("thread %d: %.2f ns/read (sum %d)%n", t, nanos[t] / (double) reads, sums[t]);
        }
    }
}
