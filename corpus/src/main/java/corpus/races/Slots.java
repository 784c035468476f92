package corpus.races;

/**
 * A registry publishes entries into the slots of a plain array under its lock and counts them in
 * a volatile field; a scanner on another thread reads the count, then the slots without the lock,
 * as a lock-free reader does. Which slots it finds filled depends on the interleaving, and its
 * sums show it. Exercises a race on reference array elements written by one class's code and
 * read by another's: the first recording learns both classes, the next orders their elements.
 */
public final class Slots {
    private final Object[] slots = new Object[16];
    private volatile int added;

    synchronized void add(Integer entry) {
        int i = added;
        slots[i % slots.length] = entry;
        slots[(i + 5) % slots.length] = null;
        added = i + 1;
    }

    /** Reads the slots as they are, without the registry's lock. */
    static final class Scanner {
        static long scan(Slots registry) {
            long sum = registry.added;
            for (Object entry : registry.slots) {
                if (entry != null) {
                    sum += (Integer) entry;
                }
            }
            return sum;
        }
    }

    public static void main(String[] args) throws Exception {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 50_000;
        Slots registry = new Slots();
        Thread writer = new Thread(() -> {
            for (int i = 0; i < n; i++) {
                registry.add(i % 100);
            }
        });
        long[] sums = new long[1];
        Thread reader = new Thread(() -> {
            for (int i = 0; i < n; i++) {
                sums[0] += Scanner.scan(registry);
            }
        });
        writer.start();
        reader.start();
        writer.join();
        reader.join();
        System.out.println("added " + registry.added + ", scanned sum " + sums[0]);
    }
}
