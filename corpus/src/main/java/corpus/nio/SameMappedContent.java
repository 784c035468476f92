package corpus.nio;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.CyclicBarrier;

import corpus.Expect;

/**
 * Threads map, at the same moment, files of the same content: in each round every thread writes
 * a file of its own with that round's text, waits for the others, and maps it. A recording keeps
 * one copy of each mapped content in its directory, and here several threads make the same copy
 * at once (as Lucene's threads do, flushing segments whose small files are alike). Expected: no
 * map fails, so the program exits 0, and the replays print the same sums.
 */
@Expect
public final class SameMappedContent {
    private static final int THREADS = 4;
    private static final int ROUNDS = 100;

    public static void main(String[] args) throws Exception {
        Path dir = Files.createTempDirectory("same-mapped");
        CyclicBarrier barrier = new CyclicBarrier(THREADS);
        long[] sums = new long[THREADS];
        Throwable[] failed = new Throwable[THREADS];
        Thread[] threads = new Thread[THREADS];
        for (int t = 0; t < THREADS; t++) {
            int id = t;
            threads[t] = new Thread(() -> {
                for (int r = 0; r < ROUNDS; r++) {
                    Path file = dir.resolve("t" + id + "-" + r);
                    try {
                        Files.writeString(file, "round " + r + " of the same content in every thread");
                        barrier.await();
                        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
                            MappedByteBuffer m = ch.map(FileChannel.MapMode.READ_ONLY, 0, ch.size());
                            for (int i = 0; i < m.capacity(); i++) {
                                sums[id] = 31 * sums[id] + m.get(i);
                            }
                        }
                    } catch (Exception e) {
                        if (failed[id] == null) {
                            failed[id] = e;
                        }
                    } finally {
                        try {
                            Files.deleteIfExists(file);
                        } catch (IOException e) {
                            throw new UncheckedIOException(e);
                        }
                    }
                }
            });
            threads[t].start();
        }
        for (Thread t : threads) {
            t.join();
        }
        Files.delete(dir);
        int status = 0;
        for (int t = 0; t < THREADS; t++) {
            if (failed[t] == null) {
                System.out.println("thread " + t + ": sum " + sums[t]);
            } else {
                System.out.println("thread " + t + ": failed " + failed[t].getClass().getName());
                status = 1;
            }
        }
        System.exit(status);
    }
}
