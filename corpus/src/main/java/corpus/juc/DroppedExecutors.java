package corpus.juc;

import java.lang.ref.Cleaner;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

import corpus.Expect;

/**
 * Cleanups the collector sets off, running the program's code on threads that are not the
 * program's. The program drops executors without shutting them down: the wrapper that
 * {@code Executors.newSingleThreadExecutor} returns shuts its pool down once collected, from the
 * JVM's finalizer (JDK 17) or the common cleaner (from JDK 21), and the pool's worker then ends.
 * A {@code finalize} method and a {@code Cleaner} action of the program's count into maps main
 * reads. How many workers have ended by the time main looks, and what the cleanups counted,
 * depend on when collections came: a replay must give the recording's answers, and its workers
 * must end where the recording's did. The last object dropped prints as it is finalized, racing
 * the program's exit: a replay prints that line if and where the recording did.
 */
@Expect(plainRunsDiffer = true)
public final class DroppedExecutors {
    private static final AtomicInteger FINALIZED = new AtomicInteger();
    private static final Map<Integer, Integer> CLEANED = new ConcurrentHashMap<>();
    private static final Cleaner CLEANER = Cleaner.create();
    private static final int ROUNDS = 60;

    private final int id;

    private DroppedExecutors(int id) {
        this.id = id;
    }

    @Override
    @SuppressWarnings("deprecation")
    protected void finalize() {
        if (id < 0) {
            System.out.println("the last one finalized");
            return;
        }
        synchronized (CLEANED) {
            FINALIZED.addAndGet(id % 3 + 1);
        }
    }

    private static int ended(List<Thread> workers) {
        int ended = 0;
        synchronized (workers) {
            for (Thread t : workers) {
                ended += t.isAlive() ? 0 : 1;
            }
        }
        return ended;
    }

    public static void main(String[] args) throws Exception {
        List<Thread> workers = new ArrayList<>();
        long sum = 0;
        for (int round = 0; round < ROUNDS; round++) {
            int r = round;
            ExecutorService pool = Executors.newSingleThreadExecutor(task -> {
                Thread t = new Thread(task, "worker-" + r);
                t.setDaemon(true);
                synchronized (workers) {
                    workers.add(t);
                }
                return t;
            });
            Future<Integer> square = pool.submit(() -> r * r);
            sum += square.get();
            new DroppedExecutors(round);
            CLEANER.register(new byte[4096], () -> CLEANED.merge(r % 7, 1, Integer::sum));
            if (round % 6 == 5) {
                System.gc();
                Thread.sleep(1);
                System.out.println("round " + round + ": workers ended " + ended(workers) + ", finalized " + FINALIZED.get());
            }
        }
        for (int i = 0; i < 3; i++) {
            System.gc();
            Thread.sleep(40);
        }
        System.out.println("sum " + sum);
        System.out.println("workers ended " + ended(workers) + " of " + ROUNDS);
        synchronized (CLEANED) {
            System.out.println("finalized " + FINALIZED.get() + ", cleaned " + new java.util.TreeMap<>(CLEANED));
        }
        // Dropped just before the exit: its line comes before the exit, after it, or not at all.
        new DroppedExecutors(-1);
        System.gc();
        Thread.sleep(1);
    }
}
