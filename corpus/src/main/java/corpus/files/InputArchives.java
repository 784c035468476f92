package corpus.files;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Collections;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * Opens the program's input as {@code ZipFile}s, as script runtimes and data tools do: an archive
 * (its entries, and one entry's bytes), a file that is no archive, a missing one, and the input
 * directory itself. Each outcome is printed; the inputs are gone before the replays.
 */
public final class InputArchives {
    public static void main(String[] args) throws IOException {
        Path in = Path.of(args[0]);
        for (String name : new String[] {"data.zip", "notes.txt", "missing.zip", ""}) {
            Path file = in.resolve(name);
            try (ZipFile zip = new ZipFile(file.toFile())) {
                StringBuilder names = new StringBuilder();
                for (ZipEntry e : Collections.list(zip.entries())) {
                    names.append(' ').append(e.getName());
                }
                ZipEntry first = zip.entries().nextElement();
                String text = new String(zip.getInputStream(first).readAllBytes(), "UTF-8").trim();
                System.out.println((name.isEmpty() ? "." : name) + ":" + names + "; " + first.getName() + " says " + text);
            } catch (IOException e) {
                System.out.println((name.isEmpty() ? "." : name) + ": " + e.getClass().getSimpleName());
            }
        }
    }
}
