package corpus.threads;

/**
 * A synchronization-heavy workload for measuring ordering overhead: threads take shared locks
 * (some contended, most mostly private) and reentrant synchronized methods in a tight loop.
 * Arguments: threads, iterations per thread.
 */
public final class SyncHeavy {
    private static final Object[] SHARED = {new Object(), new Object()};
    private long total;

    synchronized void add(long v) {
        total += v;
        addAgain(v);
    }

    synchronized void addAgain(long v) {
        total ^= v;
    }

    public static void main(String[] args) throws Exception {
        int threads = args.length > 0 ? Integer.parseInt(args[0]) : 8;
        int iterations = args.length > 1 ? Integer.parseInt(args[1]) : 200_000;
        long[] shared = new long[SHARED.length];
        SyncHeavy[] own = new SyncHeavy[threads];
        Thread[] all = new Thread[threads];
        for (int t = 0; t < threads; t++) {
            SyncHeavy mine = own[t] = new SyncHeavy();
            int me = t;
            all[t] = new Thread(() -> {
                for (int i = 0; i < iterations; i++) {
                    mine.add(i);
                    if (i % 64 == me) {
                        int k = i % SHARED.length;
                        synchronized (SHARED[k]) {
                            shared[k] += me;
                        }
                    }
                }
            });
        }
        for (Thread t : all) {
            t.start();
        }
        for (Thread t : all) {
            t.join();
        }
        long sum = 0;
        for (SyncHeavy s : own) {
            sum += s.total;
        }
        System.out.println("threads " + threads + " iterations " + iterations + " own " + sum + " shared " + shared[0] + " " + shared[1]);
    }
}
