package hello;

import java.util.List;
import java.util.stream.Collectors;

public class Hello {
    public static void main(String[] args) {
        List<String> names = List.of(args.length > 0 ? args[0] : "world", "maven", "gradle");
        System.out.println("Hello, " + names.stream().sorted().collect(Collectors.joining(", ")) + "!");
    }
}
