package corpus.nio;

import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/** Lists its directory argument in the order the file system returns, unsorted. */
public final class ListFiles {
    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[0]);
        try (Stream<Path> s = Files.list(dir)) {
            System.out.println("list: " + s.map(p -> p.getFileName().toString()).collect(Collectors.joining(" ")));
        }
        try (Stream<Path> s = Files.walk(dir)) {
            System.out.println("walk: " + s.map(p -> dir.relativize(p).toString()).collect(Collectors.joining(" ")));
        }
        StringBuilder sb = new StringBuilder();
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir, "*.txt")) {
            for (Path p : ds) {
                sb.append(' ').append(p.getFileName()).append('=').append(Files.size(p));
            }
        }
        System.out.println("glob:" + sb);
    }
}
