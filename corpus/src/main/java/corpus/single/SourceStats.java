package corpus.single;

import java.io.BufferedInputStream;
import java.io.FileInputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;

/**
 * A larger single-threaded program: reads the first N Java sources of a zip (a JDK's src.zip)
 * through a ZipInputStream, tokenizes them and prints the most frequent identifiers.
 * Arguments: path to the zip, number of .java entries (default 2000).
 */
public final class SourceStats {
    public static void main(String[] args) throws Exception {
        int limit = args.length > 1 ? Integer.parseInt(args[1]) : 2000;
        Map<String, Integer> counts = new HashMap<>();
        long bytes = 0;
        int files = 0;
        try (InputStream in = new BufferedInputStream(new FileInputStream(args[0]), 1 << 16);
             ZipInputStream zip = new ZipInputStream(in)) {
            for (ZipEntry e; files < limit && (e = zip.getNextEntry()) != null; ) {
                if (!e.getName().endsWith(".java")) {
                    continue;
                }
                String text = new String(zip.readAllBytes(), StandardCharsets.UTF_8);
                bytes += text.length();
                files++;
                int i = 0;
                while (i < text.length()) {
                    if (Character.isJavaIdentifierStart(text.charAt(i))) {
                        int j = i + 1;
                        while (j < text.length() && Character.isJavaIdentifierPart(text.charAt(j))) {
                            j++;
                        }
                        counts.merge(text.substring(i, j), 1, Integer::sum);
                        i = j;
                    } else {
                        i++;
                    }
                }
            }
        }
        System.out.println("files " + files + " chars " + bytes + " identifiers " + counts.size());
        counts.entrySet().stream()
                .sorted(Map.Entry.<String, Integer>comparingByValue().reversed().thenComparing(Map.Entry.comparingByKey()))
                .limit(10)
                .forEach(e -> System.out.println(e.getKey() + " " + e.getValue()));
    }
}
