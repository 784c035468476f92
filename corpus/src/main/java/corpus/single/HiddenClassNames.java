package corpus.single;

import corpus.Expect;
import java.io.IOException;
import java.io.InputStream;
import java.lang.invoke.MethodHandles;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * The names of hidden classes, as the program sees them: the JVM appends the address of its own
 * class to a hidden class's name, and on JDK 17 counts every lambda class spun before into a
 * lambda's, so a replay, whose JVM does other work, would name them otherwise. A {@code Method}
 * hashes by its class's name: a map keyed by the methods of lambdas' classes (as Spring's caches
 * key the methods of lambda beans) filled other bins. Expected: a replay prints the recording's
 * names, and its map in the recording's order, both for lambdas and for a class the program
 * defines hidden itself.
 */
@Expect
public final class HiddenClassNames {
    private HiddenClassNames() {
    }

    /** Defined again, hidden, from its own class file. */
    public static final class Spun {
        public String label() {
            return "spun";
        }
    }

    public static void main(String[] args) throws IOException, IllegalAccessException {
        List<Class<?>> classes = new ArrayList<>();
        for (Object lambda : List.of((Runnable) () -> { }, (Supplier<String>) () -> "x",
                (Function<String, Integer>) String::length, (Predicate<String>) String::isEmpty)) {
            classes.add(lambda.getClass());
        }
        byte[] bytes;
        try (InputStream in = Spun.class.getResourceAsStream("HiddenClassNames$Spun.class")) {
            bytes = in.readAllBytes();
        }
        classes.add(MethodHandles.lookup().defineHiddenClass(bytes, true).lookupClass());

        Map<Method, String> byMethod = new HashMap<>();
        for (int i = 0; i < classes.size(); i++) {
            Class<?> c = classes.get(i);
            System.out.println(c.getName() + (c.isHidden() ? " (hidden)" : ""));
            for (Method m : c.getDeclaredMethods()) {
                byMethod.put(m, i + "." + m.getName());
            }
        }
        System.out.println("map order: " + String.join(", ", byMethod.values()));
    }
}
