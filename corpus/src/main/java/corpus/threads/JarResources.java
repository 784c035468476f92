package corpus.threads;

import corpus.Expect;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URL;

/**
 * Two threads read a class file of the corpus jar through its {@code jar:} URL, as a library
 * reading its own resources does: the JDK opens each jar once, for the first thread to ask, and
 * caches it for the other. Which thread opened it is in that thread's recording. Expected: a
 * replay prints the recording's byte counts.
 */
@Expect
public final class JarResources {
    private JarResources() {
    }

    public static void main(String[] args) throws InterruptedException {
        URL resource = JarResources.class.getResource("JarResources.class");
        long[] read = new long[2];
        Thread[] threads = new Thread[2];
        for (int t = 0; t < threads.length; t++) {
            int id = t;
            threads[t] = new Thread(() -> {
                for (int i = 0; i < 20; i++) {
                    try (InputStream in = resource.openStream()) {
                        read[id] += in.readAllBytes().length;
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
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
        System.out.println(resource.getProtocol() + " resource read " + read[0] + " and " + read[1] + " bytes");
    }
}
