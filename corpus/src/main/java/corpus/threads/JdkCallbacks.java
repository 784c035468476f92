package corpus.threads;

import corpus.Expect;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The JDK calls back into the program's own collection: {@code Iterable.forEach} and
 * {@code String.join} ask a program's {@code Iterable} for its iterator, and that iterator takes
 * a ticket from a counter two threads share, once under a monitor and once atomically. Which
 * tickets each thread got is the order of those actions. Expected: a replay prints the
 * recording's tickets, the JDK's call in between notwithstanding.
 */
@Expect(plainRunsDiffer = true)
public final class JdkCallbacks {
    private static final Object LOCK = new Object();
    private static int locked;
    private static final AtomicInteger ATOMIC = new AtomicInteger();

    /** A program's collection of one word, whose iterator takes both tickets for its thread. */
    private static final class Ticketed implements Iterable<String> {
        private final List<Integer> tickets;

        Ticketed(List<Integer> tickets) {
            this.tickets = tickets;
        }

        @Override
        public Iterator<String> iterator() {
            synchronized (LOCK) {
                tickets.add(++locked);
            }
            tickets.add(ATOMIC.incrementAndGet());
            return List.of("w").iterator();
        }
    }

    private JdkCallbacks() {
    }

    public static void main(String[] args) throws InterruptedException {
        List<List<Integer>> all = new ArrayList<>();
        Thread[] threads = new Thread[2];
        for (int t = 0; t < threads.length; t++) {
            List<Integer> tickets = new ArrayList<>();
            all.add(tickets);
            Ticketed words = new Ticketed(tickets);
            threads[t] = new Thread(() -> {
                int letters = 0;
                for (int i = 0; i < 2000; i++) {
                    words.forEach(w -> { });
                    letters += String.join(",", words).length();
                }
                tickets.add(letters);
            });
        }
        for (Thread t : threads) {
            t.start();
        }
        for (Thread t : threads) {
            t.join();
        }
        for (List<Integer> tickets : all) {
            System.out.println(tickets.size() + " tickets, hash " + tickets.hashCode());
        }
    }
}
