package corpus.threads;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

import corpus.Expect;

/**
 * A sequence as LMAX Disruptor keeps one (log4j2's asynchronous loggers run on it): a plain
 * {@code long} the producer publishes through a {@code VarHandle} release store, and the consumer
 * reads plainly, then fences ({@code VarHandle.acquireFence}). The consumer polls while the
 * producer counts up, and notes each value it sees: which values it sees is the race. Expected:
 * a replay's consumer sees the recording's values.
 */
@Expect(plainRunsDiffer = true)
public final class FencedSequence {
    private static final int LAST = 20_000;

    private FencedSequence() {
    }

    /** The sequence: its one field, published through {@link #VALUE}. */
    static final class Sequence {
        private static final VarHandle VALUE;

        static {
            try {
                VALUE = MethodHandles.lookup().findVarHandle(Sequence.class, "value", long.class);
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }

        private long value;

        long get() {
            long v = value;
            VarHandle.acquireFence();
            return v;
        }

        void set(long v) {
            VALUE.setRelease(this, v);
        }
    }

    public static void main(String[] args) throws InterruptedException {
        Sequence sequence = new Sequence();
        Thread producer = new Thread(() -> {
            for (int i = 1; i <= LAST; i++) {
                sequence.set(i);
            }
        }, "producer");
        long seen = 0;
        long distinct = 0;
        long sum = 0;
        producer.start();
        while (seen < LAST) {
            long v = sequence.get();
            if (v != seen) {
                seen = v;
                distinct++;
                sum += v;
            }
        }
        producer.join();
        System.out.println("the consumer saw " + distinct + " values of " + LAST + ", summing to " + sum);
    }
}
