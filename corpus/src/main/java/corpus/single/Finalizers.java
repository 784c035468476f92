package corpus.single;

import java.lang.ref.Cleaner;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Main runs alone while threads that are not the program's run its code: the JVM's finalizer
 * runs {@code finalize}, and a {@code Cleaner}'s thread (the JDK's, which Reprise does not
 * record) runs cleaning actions, each filling maps of their own through
 * {@code ConcurrentHashMap} and a monitor, whenever the collections main's garbage brings let
 * them. Main counts words in a {@code ConcurrentHashMap} of its own meanwhile and prints only
 * that, which does not depend on when they ran. With the argument {@code report} it also says
 * whether they ran by then, which does.
 */
public final class Finalizers {
    private static final Map<Integer, Integer> FINALIZED = new ConcurrentHashMap<>();
    private static final Map<Integer, Integer> CLEANED = new ConcurrentHashMap<>();
    private static final AtomicInteger RAN = new AtomicInteger();
    private static final Cleaner CLEANER = Cleaner.create();

    private final int id;

    private Finalizers(int id) {
        this.id = id;
    }

    @Override
    @SuppressWarnings("deprecation")
    protected void finalize() {
        FINALIZED.merge(id % 64, 1, Integer::sum);
        FINALIZED.get(id % 7);
        synchronized (FINALIZED) {
            RAN.incrementAndGet();
        }
    }

    public static void main(String[] args) {
        Map<String, Integer> words = new ConcurrentHashMap<>();
        long sum = 0;
        for (int round = 0; round < 40; round++) {
            for (int i = 0; i < 5000; i++) {
                new Finalizers(round * 5000 + i);
                int key = i % 97;
                CLEANER.register(new byte[64], () -> CLEANED.merge(key, 1, Integer::sum));
                String word = "w" + (i * 31 + round) % 500;
                words.merge(word, 1, Integer::sum);
                sum += words.get(word);
            }
            if (round % 10 == 9) {
                System.gc();
            }
        }
        System.out.println("words " + words.size() + ", sum " + sum + ", w7 " + words.get("w7"));
        if (args.length > 0 && args[0].equals("report")) {
            System.out.println("finalizers ran " + (RAN.get() > 0) + ", cleaners ran " + !CLEANED.isEmpty());
        }
    }
}
