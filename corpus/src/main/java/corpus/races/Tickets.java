package corpus.races;

/**
 * Two threads take tickets from one shared counter, a plain instance field read and then written
 * with no synchronization: tickets are taken twice and updates lost, as the interleaving decides,
 * and the output (the counter's end, each thread's sum of its tickets) shows it. Exercises a race
 * on a plain field that no option names: the first recording learns it, the next orders it.
 */
public final class Tickets {
    private int next;

    public static void main(String[] args) throws Exception {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 100_000;
        Tickets counter = new Tickets();
        long[] sums = new long[2];
        Thread[] threads = new Thread[2];
        for (int t = 0; t < 2; t++) {
            int id = t;
            threads[t] = new Thread(() -> {
                for (int i = 0; i < n; i++) {
                    int ticket = counter.next;
                    counter.next = ticket + 1;
                    sums[id] += ticket;
                }
            });
        }
        for (Thread t : threads) {
            t.start();
        }
        for (Thread t : threads) {
            t.join();
        }
        System.out.println("next " + counter.next + ", sums " + sums[0] + " " + sums[1]);
    }
}
