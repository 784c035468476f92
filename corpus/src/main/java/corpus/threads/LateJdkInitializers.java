package corpus.threads;

import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Phaser;
import java.util.concurrent.atomic.LongAdder;

/**
 * JDK classes loaded before the agent starts and initialized only later, by threads racing to
 * use them first. The JVM and an agent's own start-up load many JDK classes without
 * initializing them (a method type naming one, a superclass); here the program's system class
 * loader, which the JVM makes before any agent, loads two whose initializers read the processor
 * count: {@code Phaser}, and {@code Striped64} through its subclass {@code LongAdder}. Run with
 * {@code -Djava.system.class.loader=corpus.threads.LateJdkInitializers$Loader}. Four threads
 * released together use the two classes first in opposite orders, so which thread runs each
 * initializer is a race. Prints what each thread computed, in thread order.
 */
public final class LateJdkInitializers {
    private static final int THREADS = 4;

    private LateJdkInitializers() {
    }

    /** The system class loader: loads the classes, without initializing them, as it is made. */
    public static final class Loader extends URLClassLoader {
        public Loader(ClassLoader parent) throws ClassNotFoundException {
            super(new URL[0], parent);
            Class.forName("java.util.concurrent.Phaser", false, null);
            Class.forName("java.util.concurrent.atomic.LongAdder", false, null);
        }

        /** The JVM adds an agent's jar (-javaagent) to the system class loader's path by this method. */
        void appendToClassPathForInstrumentation(String jar) throws MalformedURLException {
            addURL(Path.of(jar).toUri().toURL());
        }
    }

    public static void main(String[] args) throws InterruptedException {
        CountDownLatch go = new CountDownLatch(1);
        long[] results = new long[THREADS];
        Thread[] threads = new Thread[THREADS];
        for (int i = 0; i < THREADS; i++) {
            int id = i;
            threads[i] = new Thread(() -> {
                try {
                    go.await();
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
                // Events that order nothing between the threads: where a replay delays them decides
                // which thread comes first to each class.
                for (int k = 0; k < 3; k++) {
                    System.nanoTime();
                }
                results[id] = id % 2 == 0 ? phaser(id) + adder(id) : adder(id) + phaser(id);
            }, "user-" + i);
            threads[i].start();
        }
        go.countDown();
        for (Thread t : threads) {
            t.join();
        }
        for (int i = 0; i < THREADS; i++) {
            System.out.println("thread " + i + ": " + results[i]);
        }
    }

    private static long phaser(int id) {
        Phaser p = new Phaser(1);
        return p.arriveAndDeregister() + id;
    }

    private static long adder(int id) {
        LongAdder a = new LongAdder();
        a.add(id * 10L);
        return a.sum();
    }
}
