package corpus.single;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Keys a concurrent map by values whose hash combines objects hashed by identity, as a test
 * framework keys its store by namespace and key: lists (whose {@code hashCode} is the JDK's
 * collection code), unmodifiable and singleton lists, optionals and map entries. The map's
 * iteration order follows those hashes; the program prints it. Then it asks for a null key.
 */
public final class CompositeKeys {
    private static final class Part {
        final int n;

        Part(int n) {
            this.n = n;
        }
    }

    public static void main(String[] args) {
        Map<Object, Integer> store = new ConcurrentHashMap<>();
        for (int i = 0; i < 40; i++) {
            Part part = new Part(i);
            Object key = switch (i % 5) {
                case 0 -> new ArrayList<>(List.of(CompositeKeys.class, part));
                case 1 -> Collections.unmodifiableList(new ArrayList<>(List.of(part)));
                case 2 -> Collections.singletonList(part);
                case 3 -> Optional.of(part);
                default -> Map.entry(part, i);
            };
            store.put(key, part.n);
        }
        StringBuilder order = new StringBuilder();
        store.forEach((k, v) -> order.append(v).append(' '));
        System.out.println("iteration order: " + order.toString().trim());
        // A null key: the map's hashCode call throws, as a test of the map's contract expects.
        try {
            store.get(null);
            System.out.println("null key: no exception");
        } catch (NullPointerException e) {
            System.out.println("null key: NullPointerException");
        }
    }
}
