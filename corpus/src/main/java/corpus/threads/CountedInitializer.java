package corpus.threads;

/**
 * A class initializer whose synchronization is all relaxed: it reads a volatile field that no
 * one writes, after two threads have read it. Its events are only counted, so its stream holds
 * the count and its end, nothing else. Prints what each read.
 */
public final class CountedInitializer {
    static volatile int neverWritten;

    static final class Reader {
        static final int SEEN;

        static {
            int sum = 0;
            for (int i = 0; i < 100; i++) {
                sum += neverWritten + i;
            }
            SEEN = sum;
        }
    }

    private CountedInitializer() {
    }

    public static void main(String[] args) throws InterruptedException {
        Thread worker = new Thread(() -> System.out.println("worker read " + neverWritten), "worker");
        worker.start();
        worker.join();
        System.out.println("main read " + neverWritten);
        System.out.println("the initializer summed " + Reader.SEEN);
    }
}
