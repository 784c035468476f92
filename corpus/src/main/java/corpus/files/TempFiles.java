package corpus.files;

import java.io.File;
import java.io.FileOutputStream;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;

/**
 * Creates temp files (random names) in a directory, writes and reads them back, and leaves
 * them to deleteOnExit; with "exit" it ends through System.exit, so the exit hook that deletes
 * them runs on the main thread.
 */
public final class TempFiles {
    public static void main(String[] args) throws Exception {
        File dir = new File(args[0]);
        for (int i = 0; i < 3; i++) {
            File t = File.createTempFile("rep" + i + "-", ".tmp", dir);
            t.deleteOnExit();
            try (FileOutputStream out = new FileOutputStream(t)) {
                out.write(("temp " + i + " " + t.getName()).getBytes(StandardCharsets.UTF_8));
            }
            try (RandomAccessFile raf = new RandomAccessFile(t, "r")) {
                byte[] b = new byte[(int) raf.length()];
                raf.readFully(b);
                System.out.println(t.getName() + " length " + t.length() + ": " + new String(b, StandardCharsets.UTF_8));
            }
        }
        String[] left = dir.list((d, name) -> name.endsWith(".tmp"));
        System.out.println("temp files now " + left.length);
        if (args.length > 1 && args[1].equals("exit")) {
            System.exit(4);
        }
    }
}
