package corpus.races;

/**
 * A cache kept as Spring's {@code ConcurrentReferenceHashMap} keeps its segments: a table held in
 * a volatile field, whose slots writers fill and empty under the table's monitor with plain
 * stores, while readers look entries up plainly, without the monitor, trusting the volatile
 * field to publish the table. The reader folds whether each lookup found its entry into a
 * checksum. The plain loads race with the plain stores in every run: a class that publishes
 * arrays through a volatile field orders their elements, without learning.
 */
public final class PublishedSlots {
    private static final int WRITERS = 3;
    private static final int SLOTS = 8;

    /** One cached value. */
    static final class Entry {
        final int key;
        final long value;

        Entry(int key, long value) {
            this.key = key;
            this.value = value;
        }
    }

    private volatile Entry[] table = new Entry[SLOTS];

    synchronized void put(int key, long value) {
        table[key % SLOTS] = new Entry(key, value);
    }

    synchronized void evict(int key) {
        Entry[] t = table;
        if (t[key % SLOTS] != null && t[key % SLOTS].key == key) {
            t[key % SLOTS] = null;
        }
    }

    /** Without the monitor, as the reader of a published table does. */
    Entry get(int key) {
        Entry[] t = table;
        Entry e = t[key % SLOTS];
        return e != null && e.key == key ? e : null;
    }

    public static void main(String[] args) throws Exception {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 20_000;
        PublishedSlots cache = new PublishedSlots();
        Thread[] writers = new Thread[WRITERS];
        for (int w = 0; w < WRITERS; w++) {
            int id = w;
            writers[w] = new Thread(() -> {
                for (int i = 1; i <= n; i++) {
                    int key = id + WRITERS * (i % 2);
                    cache.put(key, i);
                    if (i % 3 == 0) {
                        cache.evict(key);
                    }
                }
            });
        }
        long[] checksum = new long[1];
        Thread reader = new Thread(() -> {
            for (int i = 0; i < n; i++) {
                checksum[0] = checksum[0] * 31 + (cache.get(i % (2 * WRITERS)) != null ? 1 : 0);
            }
        });
        for (Thread t : writers) {
            t.start();
        }
        reader.start();
        for (Thread t : writers) {
            t.join();
        }
        reader.join();
        System.out.println("lookups " + n + ", hits " + Long.toHexString(checksum[0]));
    }
}
