package corpus.files;

import corpus.Expect;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ResourceBundle;

/**
 * Resources read from the program's own jar after a resource bundle was loaded from it. The JDK
 * loads the bundle unlogged, and opening its file through a {@code jar:} URL files the jar in the
 * JDK's cache of open jars, keyed by the jar's identity hash: a provisional one, given inside
 * Reprise's work. The program's next resource opens look the jar up there from its own code,
 * which settles the hash to the recording's. Reprise's own work before it (the temporary file's
 * live operations, only recorded) differs between a recording and its replays: had it shifted
 * the replay's provisional value, settled to another, the JDK's lookup would miss the jar it
 * filed and open the resource another way.
 */
@Expect
public final class JarResourcesAfterBundle {
    private JarResourcesAfterBundle() {
    }

    public static void main(String[] args) throws Exception {
        Path p = Files.createTempFile("reprise-corpus", ".txt");
        Files.writeString(p, "scratch");
        System.out.println("scratch " + Files.readString(p).length());
        Files.delete(p);
        ResourceBundle names = ResourceBundle.getBundle("corpus.files.JarTables");
        System.out.println(names.getString("title"));
        for (String name : new String[] {"JarTables-rules.txt", "JarTables-terms.txt"}) {
            try (InputStream in = JarResourcesAfterBundle.class.getResourceAsStream(name)) {
                String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
                System.out.println(name + ": " + text.lines().count() + " lines, first " + text.lines().findFirst().orElse(""));
            }
        }
    }
}
