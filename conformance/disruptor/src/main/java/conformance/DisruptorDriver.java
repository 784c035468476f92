package conformance;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;

import com.lmax.disruptor.BlockingWaitStrategy;
import com.lmax.disruptor.RingBuffer;
import com.lmax.disruptor.dsl.Disruptor;
import com.lmax.disruptor.dsl.ProducerType;
import com.lmax.disruptor.util.DaemonThreadFactory;

/** LMAX Disruptor: two producers publish into a ring buffer; two handlers in parallel, then one after both. */
public final class DisruptorDriver {
    static final class Event {
        long value;
        long squared;
    }

    public static void main(String[] args) throws Exception {
        int perProducer = Integer.parseInt(args[0]);
        Disruptor<Event> d = new Disruptor<>(Event::new, 1024, DaemonThreadFactory.INSTANCE, ProducerType.MULTI,
                new BlockingWaitStrategy());
        AtomicLong sum = new AtomicLong();
        AtomicLong squares = new AtomicLong();
        long[] last = new long[1];
        CountDownLatch end = new CountDownLatch(2 * perProducer);
        d.handleEventsWith((e, seq, eob) -> sum.addAndGet(e.value), (e, seq, eob) -> e.squared = e.value * e.value % 10007)
                .then((e, seq, eob) -> {
                    squares.addAndGet(e.squared);
                    last[0] = seq;
                    end.countDown();
                });
        RingBuffer<Event> ring = d.start();
        Thread[] producers = new Thread[2];
        for (int p = 0; p < 2; p++) {
            int base = p * perProducer;
            producers[p] = new Thread(() -> {
                for (int i = 0; i < perProducer; i++) {
                    long v = base + i;
                    ring.publishEvent((e, seq) -> e.value = v);
                }
            }, "producer-" + p);
            producers[p].start();
        }
        for (Thread t : producers) {
            t.join();
        }
        end.await();
        d.shutdown();
        System.out.println("events: " + (last[0] + 1) + ", sum: " + sum.get() + ", squares mod 10007: " + squares.get());
    }
}
