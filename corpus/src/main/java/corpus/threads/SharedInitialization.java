package corpus.threads;

import corpus.Expect;
import java.util.concurrent.CountDownLatch;

/**
 * A thread reads a volatile static of a class that another thread is still initializing: the
 * read waits for the initialization, which meanwhile writes that field from a method it calls.
 * The reader must not hold anything the writer needs while it waits. Prints what it read.
 */
@Expect
public final class SharedInitialization {
    static final CountDownLatch INITIALIZING = new CountDownLatch(1);

    static final class Config {
        static volatile int generation;

        static {
            INITIALIZING.countDown();
            try {
                Thread.sleep(300); // the reader reaches its read and waits for this initialization
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            publish(1);
        }

        static void publish(int g) {
            generation = g;
        }
    }

    private SharedInitialization() {
    }

    public static void main(String[] args) throws InterruptedException {
        Thread reader = new Thread(() -> {
            try {
                INITIALIZING.await();
            } catch (InterruptedException e) {
                return;
            }
            System.out.println("reader saw generation " + Config.generation);
        }, "reader");
        reader.start();
        Config.publish(3); // initializes Config first, on this thread
        reader.join();
        System.out.println("main left generation " + Config.generation);
    }
}
