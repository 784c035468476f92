package corpus.single;

import corpus.Expect;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Lambdas as hash keys: a lambda's object has no hashCode of its own, so a hash set of them
 * iterates in the order of their identity hashes. Their classes are hidden, and a hidden class's
 * name holds an address that differs from run to run. Expected: a replay prints the labels in the
 * recording's order, though plain runs print them in orders of their own.
 */
@Expect(orders = "rto", plainRunsDiffer = true)
public final class LambdaKeys {
    private LambdaKeys() {
    }

    public static void main(String[] args) {
        // A clock-driven number of earlier identity hashes makes every plain run differ.
        long warmUp = System.nanoTime() % 97;
        for (long i = 0; i < warmUp; i++) {
            new Object().hashCode();
        }
        List<Supplier<String>> lambdas = new ArrayList<>(List.of(() -> "a", () -> "b", () -> "c", () -> "d",
                () -> "e", () -> "f", () -> "g", () -> "h"));
        for (int i = 0; i < 8; i++) {
            int n = i;
            lambdas.add(() -> "captured " + n);
        }
        Set<Supplier<String>> set = new HashSet<>(lambdas);
        StringBuilder order = new StringBuilder();
        for (Supplier<String> s : set) {
            order.append(s.get()).append(", ");
        }
        System.out.println("iteration: " + order);
    }
}
