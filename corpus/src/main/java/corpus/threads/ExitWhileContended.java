package corpus.threads;

/**
 * The JVM exits while daemon threads contend for one monitor and others spin, more threads than
 * cores: at the exit, a contender may have been preempted in the middle of its recorded
 * acquisition while main's last events (its output) come after it. Prints a fixed line.
 */
public final class ExitWhileContended {
    private static final Object LOCK = new Object();
    private static long count;

    private ExitWhileContended() {
    }

    public static void main(String[] args) throws InterruptedException {
        int contenders = Integer.parseInt(args[0]);
        int spinners = Integer.parseInt(args[1]);
        for (int i = 0; i < contenders; i++) {
            daemon("contender-" + i, () -> {
                while (true) {
                    synchronized (LOCK) {
                        count++;
                    }
                }
            });
        }
        for (int i = 0; i < spinners; i++) {
            daemon("spinner-" + i, () -> {
                long n = 0;
                while (true) {
                    n++;
                }
            });
        }
        Thread.sleep(Long.parseLong(args[2]));
        System.out.println(contenders + " contenders and " + spinners + " spinners ran");
    }

    private static void daemon(String name, Runnable body) {
        Thread t = new Thread(body, name);
        t.setDaemon(true);
        t.start();
    }
}
