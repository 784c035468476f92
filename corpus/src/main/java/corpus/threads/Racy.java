package corpus.threads;

/** Not data-race free: two threads increment a plain field without synchronization. */
public final class Racy {
    static int counter;

    public static void main(String[] args) throws Exception {
        Runnable r = () -> {
            for (int i = 0; i < 200_000; i++) {
                counter++;
            }
        };
        Thread a = new Thread(r);
        Thread b = new Thread(r);
        a.start();
        b.start();
        a.join();
        b.join();
        System.out.println("counter " + counter);
    }
}
