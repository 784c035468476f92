package corpus.juc;

import static corpus.juc.Interleavings.together;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.LoadingCache;
import com.github.benmanes.caffeine.cache.stats.CacheStats;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

import corpus.Expect;

/**
 * Caffeine, a real concurrent cache library, used by four threads at once. Its maintenance runs
 * on the calling thread (executor {@code Runnable::run}), so what the cache does follows from the
 * order of the calls. Prints which thread loaded which key (and loaded it again after D
 * invalidated it), each thread's hits and misses, and the final contents of an unbounded cache
 * and of one bounded to six entries, where the interleaving decides what was evicted.
 */
@Expect
public final class CaffeineCache {
    public static void main(String[] args) throws Exception {
        unbounded();
        bounded();
    }

    /** A, B and C get sixteen keys twice, each in its own order; D invalidates some keys and puts others. */
    static void unbounded() throws Exception {
        Cache<Integer, String> cache = Caffeine.newBuilder().executor(Runnable::run).build();
        Map<Integer, String> loads = new ConcurrentHashMap<>();
        String[] tallies = new String[4];
        together(4, (t, who) -> {
            if (who == 'D') {
                for (int i = 0; i < 16; i++) {
                    if (i % 4 == 0) {
                        cache.invalidate(i);
                    } else if (i % 4 == 2) {
                        cache.put(i, "d");
                    }
                    Thread.yield();
                }
                return;
            }
            int hits = 0;
            int misses = 0;
            for (int round = 0; round < 2; round++) {
                for (int i = 0; i < 16; i++) {
                    int key = t == 0 ? i : t == 1 ? 15 - i : (i + 8) % 16;
                    boolean[] loaded = {false};
                    cache.get(key, k -> {
                        loaded[0] = true;
                        loads.merge(k, String.valueOf(who), String::concat);
                        return String.valueOf(who);
                    });
                    if (loaded[0]) {
                        misses++;
                    } else {
                        hits++;
                    }
                    Thread.yield();
                }
            }
            tallies[t] = who + " " + hits + "/" + misses;
        });
        StringBuilder loaders = new StringBuilder();
        for (int k = 0; k < 16; k++) {
            loaders.append(' ').append(loads.getOrDefault(k, "-"));
        }
        System.out.println("unbounded: loaders by key" + loaders + "; hits/misses " + tallies[0] + ", " + tallies[1]
                + ", " + tallies[2]);
        System.out.println("unbounded contents " + new TreeMap<>(cache.asMap()));
    }

    /**
     * A bounded loading cache of six entries: A, B and C each get 40 keys, a few of them hot.
     * Which keys were loaded how often, by whom, and which survived eviction.
     */
    static void bounded() throws Exception {
        Map<Integer, String> loads = new ConcurrentHashMap<>();
        LoadingCache<Integer, String> cache = Caffeine.newBuilder().executor(Runnable::run).maximumSize(6)
                .recordStats().build(k -> {
                    String who = Thread.currentThread().getName();
                    loads.merge(k, who, String::concat);
                    return who + k;
                });
        // Caffeine sizes its frequency sketch once the cache is half full, in maintenance, and
        // readers test whether it is sized with a plain read: a benign data race, which replay
        // does not order (README). Filling the cache half full first sizes it before the race.
        for (int k = 100; k < 103; k++) {
            cache.put(k, "warm");
        }
        cache.cleanUp();
        cache.invalidateAll();
        cache.cleanUp();
        together(3, (t, who) -> {
            for (int i = 0; i < 40; i++) {
                int key = i % 3 == 0 ? i % 4 : (i * 7 + t * 5) % 16;
                cache.get(key);
                Thread.yield();
            }
        });
        cache.cleanUp();
        StringBuilder loaders = new StringBuilder();
        for (int k = 0; k < 16; k++) {
            loaders.append(' ').append(loads.getOrDefault(k, "-"));
        }
        CacheStats stats = cache.stats();
        System.out.println("bounded: loaders by key" + loaders + "; hits " + stats.hitCount() + ", misses "
                + stats.missCount() + ", evictions " + stats.evictionCount());
        System.out.println("bounded contents " + new TreeMap<>(cache.asMap()));
    }
}
