package corpus.juc;

import java.util.concurrent.ConcurrentLinkedQueue;

import corpus.Expect;

/**
 * Constructors that read what other threads write: a {@code ConcurrentLinkedQueue}'s iterator
 * reads the queue's head and its first node in its constructor (OkHttp walks its connection pool
 * this way), and an application class's constructor takes a snapshot of another object's
 * volatile field. A producer adds to the queue and bumps the field while a reader makes
 * iterators and snapshots; what each saw is the race. Expected: a replay's reader sees the
 * recording's values.
 */
@Expect(plainRunsDiffer = true)
public final class ConstructorsReadShared {
    private static final int ITEMS = 3_000;

    private ConstructorsReadShared() {
    }

    static final class Counter {
        volatile int value;
    }

    /** Reads the counter in its constructor, as a view takes the state it shows. */
    static final class Snapshot {
        final int seen;

        Snapshot(Counter counter) {
            seen = counter.value;
        }
    }

    public static void main(String[] args) throws InterruptedException {
        ConcurrentLinkedQueue<Integer> queue = new ConcurrentLinkedQueue<>();
        Counter counter = new Counter();
        Thread producer = new Thread(() -> {
            for (int i = 0; i < ITEMS; i++) {
                queue.add(i);
                counter.value = i + 1;
                if (i % 64 == 0) {
                    queue.poll();
                }
            }
        });
        long[] seen = new long[3];
        Thread reader = new Thread(() -> {
            long sum = 0;
            long nonEmpty = 0;
            for (int round = 0; round < 2_000; round++) {
                var it = queue.iterator();
                if (it.hasNext()) {
                    nonEmpty++;
                    sum = sum * 31 + it.next();
                }
                sum = sum * 31 + new Snapshot(counter).seen;
            }
            seen[0] = nonEmpty;
            seen[1] = sum;
        });
        producer.start();
        reader.start();
        producer.join();
        reader.join();
        System.out.println("queue " + queue.size() + ", counter " + counter.value + ", reader saw a first item "
                + seen[0] + " times, checksum " + Long.toHexString(seen[1]));
    }
}
