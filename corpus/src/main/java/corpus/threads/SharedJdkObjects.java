package corpus.threads;

import corpus.Expect;
import java.io.ByteArrayOutputStream;
import java.util.Hashtable;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.Vector;
import java.util.function.IntConsumer;

/**
 * Three threads share the JDK's synchronized classes, whose methods the program calls directly
 * ({@code StringBuffer}, {@code Vector}, {@code Hashtable}, {@code Properties},
 * {@code ByteArrayOutputStream}, and a seeded {@code Random}'s {@code nextGaussian}), also through
 * a method reference, and through interfaces ({@code List}, {@code Map}, {@code Appendable}). What
 * each ends up holding is the order in which the threads took their monitors. Expected: a replay prints the recording's digest of every one.
 */
@Expect
public final class SharedJdkObjects {
    private SharedJdkObjects() {
    }

    public static void main(String[] args) throws InterruptedException {
        StringBuffer text = new StringBuffer();
        Vector<Integer> vector = new Vector<>();
        Vector<Integer> elements = new Vector<>();
        Hashtable<Integer, Integer> table = new Hashtable<>();
        Properties properties = new Properties();
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        Random random = new Random(7);
        double[] gaussians = new double[3];
        IntConsumer addElement = elements::addElement;
        List<Integer> listed = new Vector<>();
        Map<Integer, Integer> mapped = new Hashtable<>();
        Appendable appended = new StringBuffer();
        Thread[] threads = new Thread[3];
        for (int t = 0; t < threads.length; t++) {
            int id = t;
            threads[t] = new Thread(() -> {
                for (int i = 0; i < 3000; i++) {
                    text.append((char) ('a' + id));
                    vector.add(id);
                    addElement.accept(id);
                    table.merge(i % 11, id + 1, (a, b) -> a * 3 + b);
                    properties.setProperty("k" + i % 5, id + ":" + i);
                    bytes.write(id);
                    gaussians[id] += random.nextGaussian();
                    listed.add(id);
                    mapped.merge(i % 7, id + 1, (a, b) -> a * 5 + b);
                    try {
                        appended.append((char) ('x' + id));
                    } catch (java.io.IOException e) {
                        throw new java.io.UncheckedIOException(e);
                    }
                }
            });
        }
        for (Thread t : threads) {
            t.start();
        }
        for (Thread t : threads) {
            t.join();
        }
        System.out.println("text " + text.toString().hashCode() + ", vector " + vector.hashCode() + ", elements "
                + elements.hashCode() + ", table " + table + ", properties " + new java.util.TreeMap<>(properties)
                + ", bytes " + java.util.Arrays.hashCode(bytes.toByteArray()));
        System.out.println("through interfaces: list " + listed.hashCode() + ", map " + mapped + ", appended "
                + appended.toString().hashCode());
        System.out.printf("gaussian sums %.6f %.6f %.6f%n", gaussians[0], gaussians[1], gaussians[2]);
    }
}
