package conformance;

import java.io.File;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;

/** Jackson: reads a JSON file into a tree and into records, aggregates, and writes JSON back. */
public final class JacksonDriver {
    public record Book(String title, String author, int year, double price, List<String> tags) {
    }

    public record Catalog(String name, List<Book> books) {
    }

    public static void main(String[] args) throws Exception {
        ObjectMapper mapper = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT)
                .enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS);
        JsonNode tree = mapper.readTree(new File(args[0]));
        Catalog catalog = mapper.treeToValue(tree, Catalog.class);
        Map<String, Double> byAuthor = new TreeMap<>();
        Map<String, Integer> byTag = new TreeMap<>();
        for (Book b : catalog.books()) {
            byAuthor.merge(b.author(), b.price(), Double::sum);
            b.tags().forEach(t -> byTag.merge(t, 1, Integer::sum));
        }
        ObjectNode summary = mapper.createObjectNode();
        summary.put("catalog", catalog.name());
        summary.put("books", catalog.books().size());
        summary.set("priceByAuthor", mapper.valueToTree(byAuthor));
        summary.set("tagCounts", mapper.valueToTree(byTag));
        summary.set("oldest", mapper.valueToTree(catalog.books().stream()
                .min((a, b) -> Integer.compare(a.year(), b.year())).orElseThrow()));
        System.out.println(mapper.writeValueAsString(summary));
        mapper.writeValue(new File(args[1]), catalog);
        System.out.println("round trip equal: " + mapper.readTree(new File(args[1])).equals(tree));
    }
}
