package corpus.process;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Waits for children on the common pool while it has other work: {@code onExit} of a process
 * and of its handle block a pool thread until the child ends, and tasks submitted meanwhile run
 * on whichever pool threads are free. The pool is the program's; its threads, counts and queues
 * must replay as they ran, though no child starts on replay. Each child touches a marker file in
 * {@code args[0]}.
 */
public final class PoolWaits {
    public static void main(String[] args) throws Exception {
        Path markers = Path.of(args[0]);
        for (int round = 0; round < 4; round++) {
            Process child = new ProcessBuilder("sh", "-c", "touch " + markers.resolve("sleep-" + round) + "; sleep 0.2")
                    .start();
            CompletableFuture<Process> exit = child.onExit();
            CompletableFuture<ProcessHandle> handleExit = child.toHandle().onExit();
            List<CompletableFuture<Long>> tasks = new ArrayList<>();
            for (int i = 0; i < 16; i++) {
                long n = 20_000 + i;
                tasks.add(CompletableFuture.supplyAsync(() -> collatzSteps(n)));
            }
            long steps = 0;
            for (CompletableFuture<Long> t : tasks) {
                steps += t.join();
            }
            System.out.println("round " + round + ": steps " + steps + ", exit " + exit.get().exitValue()
                    + ", handle alive " + handleExit.get().isAlive());
        }
    }

    private static long collatzSteps(long upTo) {
        long steps = 0;
        for (long k = 1; k <= upTo; k++) {
            for (long x = k; x != 1; x = (x & 1) == 0 ? x / 2 : 3 * x + 1) {
                steps++;
            }
        }
        return steps;
    }
}
