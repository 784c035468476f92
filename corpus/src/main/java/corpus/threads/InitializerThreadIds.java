package corpus.threads;

import corpus.Expect;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * Eight threads released together first use a class whose initializer keeps an item in the slot
 * of an array its own thread's id names, as Jetty's {@code ThreadIdPool} does (the date
 * formatter of every response). Which thread runs the initializer is a race the JVM decides anew
 * each run, after a random sleep of each thread, which replay ends at once: a replay's initializer
 * mostly runs on another thread than the recording's. Each thread then takes the item, scanning
 * from the slot its own id names, and puts it back in that slot. Prints the name of the thread
 * that made the pool, and how many slots each thread's takes scanned.
 */
@Expect(plainRunsDiffer = true)
public final class InitializerThreadIds {
    static final int SLOTS = 8;
    static final int THREADS = 8;
    static final int ROUNDS = 50;

    static final class Pool {
        static final AtomicReferenceArray<String> ITEMS = new AtomicReferenceArray<>(SLOTS);
        /** Which thread made the pool, as a log line of the initializer would say. */
        static final String MADE_ON = Thread.currentThread().getName();

        static {
            ITEMS.set((int) (Thread.currentThread().getId() % SLOTS), "item");
        }

        /** The item, or null; counts the slots scanned into {@code scanned[0]}. */
        static String take(int[] scanned) {
            int index = (int) (Thread.currentThread().getId() % SLOTS);
            for (int i = 0; i < SLOTS; i++) {
                scanned[0]++;
                String item = ITEMS.getAndSet(index, null);
                if (item != null) {
                    return item;
                }
                index = (index + 1) % SLOTS;
            }
            return null;
        }

        static void offer(String item) {
            int index = (int) (Thread.currentThread().getId() % SLOTS);
            for (int i = 0; i < SLOTS && !ITEMS.compareAndSet(index, null, item); i++) {
                index = (index + 1) % SLOTS;
            }
        }
    }

    private InitializerThreadIds() {
    }

    public static void main(String[] args) throws InterruptedException {
        CountDownLatch go = new CountDownLatch(1);
        Random random = new Random();
        int[][] scanned = new int[THREADS][1];
        int[] found = new int[THREADS];
        Thread[] users = new Thread[THREADS];
        for (int u = 0; u < THREADS; u++) {
            int me = u;
            int pause = random.nextInt(20);
            users[u] = new Thread(() -> {
                try {
                    go.await();
                    Thread.sleep(pause);
                } catch (InterruptedException e) {
                    return;
                }
                for (int r = 0; r < ROUNDS; r++) {
                    String item = Pool.take(scanned[me]);
                    if (item != null) {
                        found[me]++;
                        Pool.offer(item);
                    }
                }
            }, "user-" + u);
            users[u].start();
        }
        go.countDown();
        for (Thread t : users) {
            t.join();
        }
        System.out.println("pool made on " + Pool.MADE_ON);
        for (int u = 0; u < THREADS; u++) {
            System.out.println("user-" + u + " found the item " + found[u] + " times, scanning " + scanned[u][0] + " slots");
        }
    }
}
