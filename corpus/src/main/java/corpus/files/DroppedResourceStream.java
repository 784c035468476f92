package corpus.files;

import java.io.InputStream;
import java.lang.ref.WeakReference;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;

import corpus.Expect;

/**
 * A resource stream of a {@code URLClassLoader} over a directory, read and dropped unclosed until
 * the collector takes it, then the loader closed. The loader keeps the streams it handed out in a
 * weak map and closes those still there: the recording's collector took this one, so its close
 * closes nothing, and a replay, whose collector need not have, must not close it either.
 */
@Expect
public final class DroppedResourceStream {
    public static void main(String[] args) throws Exception {
        Path dir = Files.createTempDirectory("resources");
        Files.writeString(dir.resolve("greeting.txt"), "hello");
        URLClassLoader loader = new URLClassLoader(new URL[] {dir.toUri().toURL()}, null);
        WeakReference<InputStream> dropped = new WeakReference<>(read(loader));
        int collections = 0;
        while (dropped.get() != null && collections < 200) {
            System.gc();
            Thread.sleep(5);
            collections++;
        }
        System.out.println("the dropped stream was " + (dropped.get() == null ? "collected" : "kept"));
        loader.close();
        System.out.println("loader closed");
        Files.delete(dir.resolve("greeting.txt"));
        Files.delete(dir);
    }

    private static InputStream read(URLClassLoader loader) throws Exception {
        InputStream in = loader.getResourceAsStream("greeting.txt");
        System.out.println("first byte: " + (char) in.read());
        return in;
    }
}
