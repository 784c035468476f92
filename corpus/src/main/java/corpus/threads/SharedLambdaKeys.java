package corpus.threads;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

import corpus.Expect;

/**
 * Lambdas that capture nothing, kept in static fields and used as keys by threads that each
 * cache what they parse in a map of their own, as JGit's configurations do with their section
 * parsers: the JDK makes one object per such lambda, shared by every thread, and the thread that
 * hashes it first is a race. Each thread walks its map, whose order follows the keys' hashes.
 * Expected: a replay walks each map in the recording's order.
 */
@Expect(plainRunsDiffer = true)
public final class SharedLambdaKeys {
    private static final Supplier<String> CORE = () -> "core";
    private static final Supplier<String> USER = () -> "user";
    private static final Supplier<String> REMOTE = () -> "remote";
    private static final Supplier<String> BRANCH = () -> "branch";
    private static final Supplier<String> PACK = () -> "pack";

    private SharedLambdaKeys() {
    }

    public static void main(String[] args) throws InterruptedException {
        List<List<Supplier<String>>> orders = List.of(List.of(CORE, USER, REMOTE, BRANCH, PACK),
                List.of(PACK, BRANCH, REMOTE, USER, CORE), List.of(REMOTE, PACK, CORE, BRANCH, USER));
        String[] walked = new String[orders.size()];
        AtOnce.run(orders.size(), id -> {
            Map<Supplier<String>, String> parsed = new ConcurrentHashMap<>();
            for (Supplier<String> parser : orders.get(id)) {
                parsed.put(parser, parser.get());
            }
            walked[id] = String.join(" ", parsed.values());
        });
        for (String w : walked) {
            System.out.println(w);
        }
    }
}
