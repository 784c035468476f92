package corpus.threads;

import corpus.Expect;
import java.util.ArrayDeque;
import java.util.Deque;

/** A bounded buffer with wait/notifyAll: producers and consumers print what they move, in the order they move it. */
@Expect
public final class ProducerConsumer {
    private static final int CAPACITY = 3;
    private final Deque<Integer> items = new ArrayDeque<>();

    synchronized void put(String who, int item) throws InterruptedException {
        while (items.size() == CAPACITY) {
            wait();
        }
        items.addLast(item);
        System.out.println(who + " put " + item + " size " + items.size());
        notifyAll();
    }

    synchronized int take(String who) throws InterruptedException {
        while (items.isEmpty()) {
            wait(50);
        }
        int item = items.removeFirst();
        System.out.println(who + " took " + item + " size " + items.size());
        notifyAll();
        return item;
    }

    public static void main(String[] args) throws Exception {
        ProducerConsumer buffer = new ProducerConsumer();
        int perProducer = 40;
        Thread[] threads = new Thread[4];
        for (int p = 0; p < 2; p++) {
            int base = p * 1000;
            threads[p] = new Thread(() -> {
                try {
                    for (int i = 0; i < perProducer; i++) {
                        buffer.put("producer" + base / 1000, base + i);
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
        }
        long[] sums = new long[2];
        for (int c = 0; c < 2; c++) {
            int me = c;
            threads[2 + c] = new Thread(() -> {
                try {
                    for (int i = 0; i < perProducer; i++) {
                        sums[me] += buffer.take("consumer" + me);
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
        }
        for (Thread t : threads) {
            t.start();
        }
        for (Thread t : threads) {
            t.join();
        }
        System.out.println("sums " + sums[0] + " " + sums[1]);
    }
}
