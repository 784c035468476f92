package conformance;

import java.util.Map;
import java.util.TreeMap;
import java.util.stream.IntStream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.LoadingCache;

/**
 * Caffeine and Jackson under parallel streams: the common pool's threads serialize and parse
 * generated documents, memoized in a bounded Caffeine cache whose loads and evictions race.
 * The totals it prints do not depend on the interleaving.
 */
public final class CaffeineJacksonDriver {
    public record Order(int id, String customer, int quantity, double price) {
    }

    public static void main(String[] args) {
        int n = Integer.parseInt(args[0]);
        ObjectMapper mapper = new ObjectMapper();
        LoadingCache<Integer, String> json = Caffeine.newBuilder().maximumSize(500).executor(Runnable::run)
                .build(id -> mapper.writeValueAsString(new Order(id, "c" + id % 13, id % 7 + 1, (id % 100) / 4.0)));
        double total = IntStream.range(0, n).parallel().mapToDouble(i -> {
            try {
                JsonNode o = mapper.readTree(json.get(i % 2000));
                return o.get("quantity").asInt() * o.get("price").asDouble();
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }).sum();
        Map<String, Long> byCustomer = new TreeMap<>(IntStream.range(0, n).parallel().boxed()
                .collect(java.util.stream.Collectors.groupingByConcurrent(i -> "c" + i % 2000 % 13,
                        java.util.stream.Collectors.counting())));
        System.out.printf("total %.2f%n", total);
        System.out.println("orders by customer " + byCustomer);
        System.out.println("cache bounded: " + (json.estimatedSize() <= 500));
    }
}
