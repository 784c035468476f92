package corpus.nio;

import java.io.BufferedReader;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/** Reads the files of its directory argument every way {@code Files} offers, and their metadata. */
public final class ReadFiles {
    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[0]);
        Path text = dir.resolve("text.txt");
        Path data = dir.resolve("data.bin");
        System.out.println("readString: " + Files.readString(text));
        System.out.println("readAllLines: " + Files.readAllLines(text));
        byte[] bytes = Files.readAllBytes(data);
        System.out.println("readAllBytes: " + bytes.length + " bytes, sum " + sum(bytes));
        try (BufferedReader r = Files.newBufferedReader(text)) {
            System.out.println("newBufferedReader: " + r.readLine());
        }
        try (Stream<String> lines = Files.lines(text)) {
            System.out.println("lines: " + lines.map(String::toUpperCase).collect(Collectors.joining("|")));
        }
        try (InputStream in = Files.newInputStream(data)) {
            byte[] head = in.readNBytes(10);
            System.out.println("newInputStream: " + sum(head) + " skip " + in.skip(100) + " available " + in.available()
                    + " rest " + in.readAllBytes().length);
        }
        for (Path p : List.of(dir, text, data, dir.resolve("missing"))) {
            System.out.println(p.getFileName() + ": exists " + Files.exists(p) + " notExists " + Files.notExists(p)
                    + " dir " + Files.isDirectory(p) + " regular " + Files.isRegularFile(p)
                    + " nofollow " + Files.exists(p, LinkOption.NOFOLLOW_LINKS) + " readable " + Files.isReadable(p));
        }
        System.out.println("size " + Files.size(data) + " modified " + Files.getLastModifiedTime(data).toMillis());
        BasicFileAttributes basic = Files.readAttributes(text, BasicFileAttributes.class);
        System.out.println("basic: " + basic.size() + " " + basic.lastModifiedTime() + " " + basic.lastAccessTime()
                + " " + basic.creationTime() + " key " + basic.fileKey());
        PosixFileAttributes posix = Files.readAttributes(text, PosixFileAttributes.class);
        System.out.println("posix: " + posix.owner().getName() + " " + posix.group().getName() + " "
                + PosixFilePermissions.toString(posix.permissions()));
        System.out.println("realPath: " + text.toRealPath().endsWith("text.txt"));
        try {
            Files.readAllBytes(dir.resolve("missing"));
        } catch (NoSuchFileException e) {
            System.out.println("missing: " + e.getClass().getSimpleName() + " " + dir.relativize(Path.of(e.getFile())));
        }
    }

    private static long sum(byte[] b) {
        long s = 0;
        for (byte x : b) {
            s = s * 31 + x;
        }
        return s;
    }
}
