package corpus.files;

import java.io.File;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.InputStream;

/**
 * Loads a native library the way jffi (JRuby's and Jython's native access) does, in a class
 * initializer: copies it to a temp file, {@code System.load}s that file, then deletes it, falling
 * back to another path if the load fails. The library is one of the JDK's that needs nothing but
 * libc, standing in for a library packed in a jar.
 */
public final class ExtractedLibrary {
    static final class Stub {
        static final String STATE;

        static {
            String state;
            try {
                File lib = extract(new File(System.getProperty("java.home"), "lib/libj2pkcs11.so"));
                System.load(lib.getAbsolutePath());
                state = "loaded from its extracted copy, deleted " + lib.delete();
            } catch (UnsatisfiedLinkError | java.io.IOException e) {
                state = "fell back: " + e.getClass().getSimpleName();
            }
            STATE = state;
        }

        private static File extract(File from) throws java.io.IOException {
            File to = File.createTempFile("stub", ".so");
            to.deleteOnExit();
            try (InputStream in = new FileInputStream(from); FileOutputStream out = new FileOutputStream(to)) {
                byte[] buf = new byte[8192];
                for (int n; (n = in.read(buf)) > 0; ) {
                    out.write(buf, 0, n);
                }
            }
            return to;
        }
    }

    public static void main(String[] args) {
        System.out.println("stub " + Stub.STATE);
    }
}
