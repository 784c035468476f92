package corpus.nio;

import java.io.BufferedWriter;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;

/** Creates, writes, copies, moves and deletes files and directories under its directory argument. */
public final class WriteFiles {
    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[0]);
        Path a = dir.resolve("a.txt");
        Files.writeString(a, "alpha " + System.nanoTime() + "\n");
        Files.write(a, "more\n".getBytes(StandardCharsets.UTF_8), StandardOpenOption.APPEND);
        try (OutputStream out = Files.newOutputStream(dir.resolve("b.bin"))) {
            for (int i = 0; i < 20000; i++) {
                out.write(i);
            }
        }
        try (BufferedWriter w = Files.newBufferedWriter(dir.resolve("c.txt"))) {
            w.write("written by a buffered writer\n");
        }
        Path sub = Files.createDirectories(dir.resolve("x/y/z"));
        System.out.println("created " + dir.relativize(sub) + " " + Files.isDirectory(sub));
        try {
            Files.createDirectory(sub);
        } catch (FileAlreadyExistsException e) {
            System.out.println("again: " + e.getClass().getSimpleName());
        }
        Files.copy(a, sub.resolve("a-copy.txt"));
        Files.move(dir.resolve("c.txt"), sub.resolve("c-moved.txt"), StandardCopyOption.ATOMIC_MOVE);
        try {
            Files.copy(a, sub.resolve("a-copy.txt"));
        } catch (FileAlreadyExistsException e) {
            System.out.println("copy again: " + e.getClass().getSimpleName());
        }
        Files.setLastModifiedTime(a, FileTime.fromMillis(1_000_000_000_000L));
        System.out.println("a: " + Files.readString(a).startsWith("alpha") + " modified "
                + Files.getLastModifiedTime(a).toMillis() + " size " + Files.size(a));
        System.out.println("copy: " + Files.readString(sub.resolve("a-copy.txt")).equals(Files.readString(a)));
        System.out.println("b: " + Files.size(dir.resolve("b.bin")));
        System.out.println("moved: " + Files.exists(dir.resolve("c.txt")) + " " + Files.readString(sub.resolve("c-moved.txt")));
        Path temp = Files.createTempFile(dir, "tmp", ".txt");
        Path tempDir = Files.createTempDirectory(dir, "tmpdir");
        System.out.println("temp: " + temp.getFileName() + " " + tempDir.getFileName() + " " + Files.size(temp));
        try {
            Files.delete(dir.resolve("x"));
        } catch (DirectoryNotEmptyException e) {
            System.out.println("delete x: " + e.getClass().getSimpleName());
        }
        Files.delete(temp);
        System.out.println("deleteIfExists: " + Files.deleteIfExists(temp) + " " + Files.deleteIfExists(tempDir));
        System.out.println("modified " + Files.getLastModifiedTime(dir.resolve("b.bin")).toMillis());
    }
}
