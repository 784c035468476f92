package corpus.threads;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
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
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < orders.size(); t++) {
            int id = t;
            Thread thread = new Thread(() -> {
                try {
                    start.await();
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
                Map<Supplier<String>, String> parsed = new ConcurrentHashMap<>();
                for (Supplier<String> parser : orders.get(id)) {
                    parsed.put(parser, parser.get());
                }
                walked[id] = String.join(" ", parsed.values());
            });
            thread.start();
            threads.add(thread);
        }
        start.countDown();
        for (Thread thread : threads) {
            thread.join();
        }
        for (String w : walked) {
            System.out.println(w);
        }
    }
}
