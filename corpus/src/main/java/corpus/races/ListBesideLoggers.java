package corpus.races;

import java.util.ArrayList;
import java.util.List;
import java.util.logging.Logger;

/**
 * A writer adds to a shared {@code ArrayList} while a reader polls its size with no
 * synchronization, a race on the list's {@code size} that the first recording learns and the next
 * orders. Both threads meanwhile make {@code java.util.logging} loggers they drop, and garbage:
 * the JDK keeps its logger tree in lists of its own, under its own lock, and the collector trims
 * them. Those lists are no race of the program's, and how often the JDK touches them depends on
 * when the collector ran, which no two runs share.
 */
public final class ListBesideLoggers {
    private static final List<Integer> SHARED = new ArrayList<>();
    /** Keeps the garbage reachable until the next round, so that collections happen. */
    private static volatile Object sink;

    public static void main(String[] args) throws Exception {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 20_000;
        // The logging registry starts here, on main: which thread first asks for a logger (and so
        // initializes the registry) would otherwise be a race inside the JDK, under its own lock.
        Logger.getLogger("corpus.races").fine("started");
        int[] seen = new int[1];
        Thread writer = new Thread(() -> {
            for (int i = 0; i < n; i++) {
                SHARED.add(i);
                churn("writer", i);
            }
        });
        Thread reader = new Thread(() -> {
            for (int i = 0; i < n; i++) {
                seen[0] = Math.max(seen[0], SHARED.size());
                churn("reader", i);
            }
        });
        writer.start();
        reader.start();
        writer.join();
        reader.join();
        System.out.println("size " + SHARED.size() + ", the reader saw at most " + seen[0]);
    }

    private static void churn(String who, int i) {
        if (i % 50 == 0) {
            Logger.getLogger("corpus.races." + who + "." + i).fine("made");
            sink = new byte[64 * 1024];
        }
    }
}
