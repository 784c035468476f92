package corpus.debug;

import java.util.HashMap;
import java.util.Map;
import java.util.Random;

/**
 * A program to go back in (GoingBackTest): each round posts an entry whose amount comes from a
 * {@code Random} seeded by the clock, so only the recording knows the values; entries are keys of
 * a hash map without their own {@code hashCode}, so the book's order and text come from identity
 * hashes; an auditor thread waits on the same lock for the rounds to be posted; the last line
 * goes through a class loaded only then. The lines marked {@code debugger:} are where the test
 * sets its breakpoints.
 */
public final class Ledger {
    static int posted;

    static final class Entry {
        final String name;
        final int amount;

        Entry(String name, int amount) {
            this.name = name;
            this.amount = amount;
        }

        @Override
        public String toString() {
            return name + "=" + amount + "@" + Integer.toHexString(System.identityHashCode(this));
        }
    }

    public static void main(String[] args) throws Exception {
        Random random = new Random();
        Map<Entry, Integer> book = new HashMap<>();
        Thread auditor = new Thread(() -> audit(book), "auditor");
        auditor.start();
        int balance = 0;
        for (int round = 1; round <= 5; round++) {
            Entry entry = new Entry("round" + round, 1 + random.nextInt(1000));
            balance += entry.amount;
            synchronized (Ledger.class) {
                book.put(entry, balance);
                posted++;
                Ledger.class.notifyAll();
            }
            System.out.println("round " + round + ": " + entry + ", balance " + balance); // debugger: each round
        }
        auditor.join();
        System.out.println("book " + Summary.of(book));
    }

    /** Loaded only for the last line: a class an earlier moment of the replay has not loaded yet. */
    static final class Summary {
        static String of(Map<Entry, Integer> book) {
            String text = book.toString();
            return text; // debugger: summary
        }
    }

    static void audit(Map<Entry, Integer> book) {
        synchronized (Ledger.class) {
            while (posted < 5) {
                try {
                    Ledger.class.wait();
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            }
            System.out.println("audited " + book.size() + " entries at " + System.currentTimeMillis() % 1);
        }
    }
}
