package corpus.single;

import java.lang.reflect.Field;
import java.net.URL;
import java.net.URLClassLoader;

/**
 * Prints the identity hashes of objects the JDK made or hashed first: the class path's unnamed
 * module, the message of a reflective access the module system refuses (as a test suite run
 * without {@code --add-opens} prints it for every such test), the unnamed module of a class loader
 * the program makes, after the JDK looked it up in its table of reflective opens, and the main
 * thread.
 */
public final class JdkObjectHashes {
    public static void main(String[] args) throws Exception {
        System.out.println("module: " + JdkObjectHashes.class.getModule());
        Field digits = Integer.class.getDeclaredField("digits");
        try {
            digits.setAccessible(true);
            System.out.println("opened " + digits);
        } catch (RuntimeException e) {
            System.out.println("refused: " + e.getMessage());
        }
        try (URLClassLoader loader = new URLClassLoader(new URL[0])) {
            Module unnamed = loader.getUnnamedModule();
            System.out.println("java.lang open to it: " + Object.class.getModule().isOpen("java.lang", unnamed));
            System.out.println("loader's module: " + unnamed);
        }
        System.out.println("main thread: " + Integer.toHexString(System.identityHashCode(Thread.currentThread())));
    }
}
