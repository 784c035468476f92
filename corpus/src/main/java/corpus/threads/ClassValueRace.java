package corpus.threads;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.atomic.AtomicInteger;

import corpus.Expect;

/**
 * Four threads ask one {@code ClassValue} for the same classes at once, as dynamic languages'
 * runtimes (Nashorn's dynalink, Groovy, JRuby) ask theirs for a class's metadata. Each thread
 * that finds no value runs {@code computeValue} (the program's code: it counts, ordered, and
 * names itself), and the JDK keeps the value that lands first: which threads compute and whose
 * value every thread gets is a race. Expected: a replay's threads compute and get what the
 * recording's did.
 */
@Expect(plainRunsDiffer = true)
public final class ClassValueRace {
    private static final AtomicInteger COMPUTED = new AtomicInteger();
    private static final ClassValue<String> NAMES = new ClassValue<>() {
        @Override
        protected String computeValue(Class<?> type) {
            return type.getSimpleName() + " #" + COMPUTED.incrementAndGet() + " by " + Thread.currentThread().getName();
        }
    };
    private static final Class<?>[] TYPES = {String.class, Integer.class, Long.class, List.class, ArrayList.class,
        Thread.class, Runnable.class, StringBuilder.class, Math.class, Character.class, Byte.class, Short.class};

    private ClassValueRace() {
    }

    public static void main(String[] args) throws Exception {
        CyclicBarrier together = new CyclicBarrier(4);
        List<Thread> threads = new ArrayList<>();
        List<List<String>> seen = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
            List<String> mine = new ArrayList<>();
            seen.add(mine);
            Thread thread = new Thread(() -> {
                try {
                    together.await();
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
                for (Class<?> type : TYPES) {
                    mine.add(NAMES.get(type));
                }
            }, "worker-" + t);
            threads.add(thread);
            thread.start();
        }
        for (Thread thread : threads) {
            thread.join();
        }
        for (int t = 0; t < 4; t++) {
            System.out.println("worker-" + t + " got " + seen.get(t));
        }
        System.out.println(COMPUTED.get() + " computations for " + TYPES.length + " classes");
    }
}
