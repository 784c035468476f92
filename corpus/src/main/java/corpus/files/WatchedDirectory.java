package corpus.files;

import static java.nio.file.StandardWatchEventKinds.ENTRY_CREATE;
import static java.nio.file.StandardWatchEventKinds.ENTRY_DELETE;
import static java.nio.file.StandardWatchEventKinds.ENTRY_MODIFY;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.WatchEvent;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.util.concurrent.TimeUnit;

/**
 * Watches {@code args[0]}, a directory, as a configuration reloader or a build tool's watch mode
 * does, while a writer thread creates two files, appends to one and deletes the other: prints
 * each event the watch service delivers, with its count, which depends on how the kernel's
 * events fell into the key's batches, until the deletion; then a poll that times out, and the
 * close. A replay writes no file: its events are the recording's.
 */
public final class WatchedDirectory {
    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[0]);
        try (WatchService watch = dir.getFileSystem().newWatchService()) {
            WatchKey registered = dir.register(watch, ENTRY_CREATE, ENTRY_MODIFY, ENTRY_DELETE);
            Thread writer = new Thread(() -> {
                try {
                    Files.writeString(dir.resolve("a.txt"), "first");
                    Files.writeString(dir.resolve("b.txt"), "second");
                    Files.writeString(dir.resolve("a.txt"), " and more", StandardOpenOption.APPEND);
                    Files.delete(dir.resolve("b.txt"));
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            }, "writer");
            writer.start();
            boolean deleted = false;
            while (!deleted) {
                WatchKey key = watch.take();
                System.out.println("key is the registered one: " + (key == registered));
                for (WatchEvent<?> event : key.pollEvents()) {
                    System.out.println(event.kind().name() + " " + event.context() + " x" + event.count());
                    deleted |= event.kind() == ENTRY_DELETE;
                }
                key.reset();
            }
            writer.join();
            System.out.println("then: " + watch.poll(50, TimeUnit.MILLISECONDS));
        }
        System.out.println("closed");
    }
}
