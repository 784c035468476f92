package corpus.single;

import corpus.Expect;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Set;

/** Identity hash codes, and the iteration order of hash collections keyed by objects without their own hashCode. */
@Expect(orders = "rto", plainRunsDiffer = true)
public final class HashKeyedCollections {
    enum Color { RED, GREEN, BLUE, CYAN, MAGENTA, YELLOW }

    static final class Key {
        final int n;

        Key(int n) {
            this.n = n;
        }

        @Override
        public String toString() {
            return "k" + n;
        }
    }

    /** Declares a hashCode, Object's: calls of it are not hooked, its super call is. */
    static final class SuperHashed {
        final int n;

        SuperHashed(int n) {
            this.n = n;
        }

        @Override
        public int hashCode() {
            return super.hashCode();
        }

        @Override
        public String toString() {
            return "s" + n;
        }
    }

    public static void main(String[] args) {
        // The JVM's identity hashes follow a per-thread sequence: a clock-driven number of earlier
        // hashes makes every plain run differ.
        long warmUp = System.nanoTime() % 97;
        for (long i = 0; i < warmUp; i++) {
            new Object().hashCode();
        }
        Object o = new Object();
        System.out.println("hashCode          " + o.hashCode());
        System.out.println("identityHashCode  " + System.identityHashCode(o));
        System.out.println("toString          " + new Object());
        Set<Key> set = new HashSet<>();
        Map<Object, Integer> map = new HashMap<>();
        Map<Key, Integer> identity = new IdentityHashMap<>();
        for (int i = 0; i < 40; i++) {
            Key k = new Key(i);
            set.add(k);
            map.put(k, i);
            identity.put(k, i);
        }
        System.out.println("HashSet order     " + set);
        Set<SuperHashed> supers = new HashSet<>();
        int sum = 0;
        for (int i = 0; i < 40; i++) {
            SuperHashed s = new SuperHashed(i);
            sum += s.hashCode() % 1000;
            supers.add(s);
        }
        System.out.println("super.hashCode    " + sum + " " + supers);
        System.out.println("HashMap order     " + map.keySet());
        System.out.println("IdentityHashMap   " + identity.keySet());
        Set<Color> colors = new HashSet<>(java.util.List.of(Color.values()));
        System.out.println("enum HashSet      " + colors);
        Set<Class<?>> classes = new HashSet<>(java.util.List.of(Key.class, Color.class, HashKeyedCollections.class));
        System.out.println("class HashSet     " + classes.size());
    }
}
