package corpus.threads;

import java.util.concurrent.ForkJoinPool;

/**
 * Tasks run one after another on the common ForkJoinPool, whose workers erase their thread
 * locals between tasks: each task reads the clock, so the worker records events in both.
 */
public final class CommonPool {
    public static void main(String[] args) throws Exception {
        long total = 0;
        for (int i = 0; i < 3; i++) {
            int n = i;
            total += ForkJoinPool.commonPool().submit(() -> System.nanoTime() % 1000 + n).get();
        }
        System.out.println("clock residues " + total);
    }
}
