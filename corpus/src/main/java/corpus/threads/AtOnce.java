package corpus.threads;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.function.IntConsumer;

/** Runs a task on several new threads released together, as a race needs them, and waits for them all. */
final class AtOnce {
    private AtOnce() {
    }

    /** Runs {@code task} with each index below {@code threads}, each on a thread of its own, started at once. */
    static void run(int threads, IntConsumer task) throws InterruptedException {
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> started = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int id = t;
            Thread thread = new Thread(() -> {
                try {
                    start.await();
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
                task.accept(id);
            });
            thread.start();
            started.add(thread);
        }
        start.countDown();
        for (Thread thread : started) {
            thread.join();
        }
    }
}
