package corpus.threads;

import java.lang.invoke.VarHandle;
import java.lang.reflect.Field;

import corpus.Expect;
import sun.misc.Unsafe;

/**
 * A counter as JCTools' map keeps its table: a plain field updated only by {@code Unsafe}
 * compare-and-swap, through an offset that a library helper computes from the class and the
 * field's name ({@link Offsets#fieldOffset}), and read plainly by the code of another class (the
 * map's nested resizer reads the table so). The consumer polls the counter while two producers
 * count it up, and notes the values it sees: which it sees is the race. Expected: a replay's
 * consumer sees the recording's values.
 */
@Expect(plainRunsDiffer = true)
public final class HelperOffsetField {
    private static final int PER_PRODUCER = 10_000;
    private static final Unsafe UNSAFE = unsafe();

    private HelperOffsetField() {
    }

    /** The library's helper: not the JDK's {@code objectFieldOffset}, and in a class of its own. */
    static final class Offsets {
        private Offsets() {
        }

        static long fieldOffset(Class<?> c, String name) {
            try {
                return UNSAFE.objectFieldOffset(c.getDeclaredField(name));
            } catch (NoSuchFieldException e) {
                throw new IllegalStateException(e);
            }
        }
    }

    /** The counter: its one field, changed only through {@link #COUNT}. */
    static final class Counter {
        private static final long COUNT = Offsets.fieldOffset(Counter.class, "count");

        private long count;

        void increment() {
            long c;
            do {
                c = UNSAFE.getLongVolatile(this, COUNT);
            } while (!UNSAFE.compareAndSwapLong(this, COUNT, c, c + 1));
        }
    }

    /** Another class's code, reading the counter's field plainly, then fencing. */
    static final class Reader {
        private Reader() {
        }

        static long peek(Counter counter) {
            long c = counter.count;
            VarHandle.acquireFence();
            return c;
        }
    }

    public static void main(String[] args) throws InterruptedException {
        Counter counter = new Counter();
        Thread[] producers = new Thread[2];
        for (int p = 0; p < producers.length; p++) {
            producers[p] = new Thread(() -> {
                for (int i = 0; i < PER_PRODUCER; i++) {
                    counter.increment();
                }
            }, "producer-" + p);
        }
        for (Thread t : producers) {
            t.start();
        }
        long last = producers.length * (long) PER_PRODUCER;
        long seen = 0;
        long distinct = 0;
        long sum = 0;
        while (seen < last) {
            long c = Reader.peek(counter);
            if (c != seen) {
                seen = c;
                distinct++;
                sum += c;
            }
        }
        for (Thread t : producers) {
            t.join();
        }
        System.out.println("the consumer saw " + distinct + " values of " + last + ", summing to " + sum);
    }

    private static Unsafe unsafe() {
        try {
            Field f = Unsafe.class.getDeclaredField("theUnsafe");
            f.setAccessible(true);
            return (Unsafe) f.get(null);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }
}
