package corpus.files;

import java.io.FileInputStream;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Operations that fail, each printing its exception's whole stack trace, as a test runner prints
 * a failed test's: a missing file opened by a stream, by a random access file and by NIO, and a
 * sleep interrupted. Expected: the recording prints the traces a run without Reprise prints, and
 * a replay prints them again with the files and the interrupt gone.
 */
public final class FailureTraces {
    private FailureTraces() {
    }

    public static void main(String[] args) throws Exception {
        Path missing = Path.of(args[0]).resolve("missing.txt");
        try (FileInputStream in = new FileInputStream(missing.toFile())) {
            System.out.println("opened " + in.read());
        } catch (IOException e) {
            e.printStackTrace(System.out);
        }
        try (RandomAccessFile raf = new RandomAccessFile(missing.toFile(), "r")) {
            System.out.println("opened " + raf.length());
        } catch (IOException e) {
            e.printStackTrace(System.out);
        }
        try {
            System.out.println("read " + Files.readAllBytes(missing).length);
        } catch (IOException e) {
            e.printStackTrace(System.out);
        }
        Thread.currentThread().interrupt();
        try {
            Thread.sleep(10_000);
        } catch (InterruptedException e) {
            e.printStackTrace(System.out);
        }
    }
}
