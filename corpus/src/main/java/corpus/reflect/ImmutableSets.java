package corpus.reflect;

import java.util.List;
import java.util.Map;
import java.util.Set;

/** Prints Set.of and Map.of in iteration order, which a per-run salt drawn at JVM boot decides. */
public final class ImmutableSets {
    private ImmutableSets() {
    }

    public static void main(String[] args) {
        Set<String> set = Set.of("a", "b", "c", "d", "e", "f", "g");
        Map<Integer, String> map = Map.of(1, "one", 2, "two", 3, "three", 4, "four", 5, "five");
        System.out.println("set: " + set);
        System.out.println("pair: " + Set.of("x", "y"));
        System.out.println("map: " + map);
        System.out.println("keys: " + List.copyOf(map.keySet()));
        System.out.println("array: " + String.join(",", set.toArray(new String[0])));
        StringBuilder sb = new StringBuilder("forEach:");
        map.forEach((k, v) -> sb.append(' ').append(k));
        set.stream().forEach(s -> sb.append(' ').append(s));
        System.out.println(sb);
    }
}
