package corpus.races;

/**
 * A cache of many entries, as a database keeps its pages: a reader walks every entry and reloads
 * those it finds evicted, while an evicting thread clears one entry now and then. Both read and
 * write the entry's plain field with nothing ordering them, so how many reloads the reader makes
 * depends on the interleaving, and its output shows it. Between an eviction and the reader
 * meeting that entry, the reader touches thousands of other entries' fields: exercises a race on
 * one object among many, which the watch must remember past the reads of the others.
 */
public final class Evictions {
    /** One cache entry: its page, cleared when evicted. */
    private static final class Ref {
        Object page;

        Ref(int id) {
            page = Integer.valueOf(id);
        }
    }

    private final Ref[] refs;
    private volatile boolean evicting = true;
    private int reloads;

    private Evictions(int n) {
        refs = new Ref[n];
        for (int i = 0; i < n; i++) {
            refs[i] = new Ref(i);
        }
    }

    /** One pass of the reader over every entry. */
    private long pass() {
        long sum = 0;
        for (int i = 0; i < refs.length; i++) {
            Ref ref = refs[i];
            Object page = ref.page;
            if (page == null) {
                page = reload(i);
                ref.page = page;
            }
            sum += (Integer) page;
        }
        return sum;
    }

    private synchronized Object reload(int i) {
        reloads++;
        return Integer.valueOf(i);
    }

    public static void main(String[] args) throws Exception {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 65_536;
        int evictions = args.length > 1 ? Integer.parseInt(args[1]) : 100;
        Evictions cache = new Evictions(n);
        Thread evicter = new Thread(() -> {
            try {
                for (int k = 0; k < evictions; k++) {
                    cache.refs[(int) ((k * 7919L + n / 2) % n)].page = null;
                    Thread.sleep(1);
                }
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
            cache.evicting = false;
        });
        long[] sum = new long[1];
        int[] passes = new int[1];
        Thread reader = new Thread(() -> {
            do {
                sum[0] += cache.pass();
                passes[0]++;
            } while (cache.evicting);
        });
        evicter.start();
        reader.start();
        evicter.join();
        reader.join();
        System.out.println("passes " + passes[0] + ", reloads " + cache.reloads + ", sum " + sum[0]);
    }
}
