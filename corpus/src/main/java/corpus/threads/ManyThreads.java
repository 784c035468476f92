package corpus.threads;

/** Far more threads than cores, handing one token around a ring in a fixed order through one monitor. */
public final class ManyThreads {
    private static int turn;

    public static void main(String[] args) throws Exception {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 256;
        Object lock = new Object();
        Thread[] threads = new Thread[n];
        StringBuilder order = new StringBuilder();
        for (int i = 0; i < n; i++) {
            int me = i;
            threads[i] = new Thread(() -> {
                synchronized (lock) {
                    order.append(me).append(' ');
                    turn++;
                    lock.notifyAll();
                }
            });
        }
        for (Thread t : threads) {
            t.start();
        }
        for (Thread t : threads) {
            t.join();
        }
        System.out.println("threads " + turn);
        System.out.println("order " + order.toString().trim().hashCode() + " starts " + order.substring(0, Math.min(60, order.length())));
    }
}
