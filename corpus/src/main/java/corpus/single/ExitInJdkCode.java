package corpus.single;

import java.lang.reflect.Method;

/**
 * Prints, then exits with status 5 through a call the JDK's code makes, not its own: a reflective
 * call of {@code Runtime.exit}, as a JDK tool's main class ({@code javac}, {@code jar}) exits. The
 * program's synchronization is all relaxed, counted and not written, and it ends with such
 * events after the last print.
 */
public final class ExitInJdkCode {
    public static void main(String[] args) throws Exception {
        Object lock = new Object();
        int lines = 0;
        for (int i = 0; i < 20; i++) {
            System.out.println("line " + i);
            synchronized (lock) {
                lines++;
            }
        }
        Method exit = Runtime.class.getMethod("exit", int.class);
        exit.invoke(Runtime.getRuntime(), lines / 4);
        System.out.println("not reached");
    }
}
