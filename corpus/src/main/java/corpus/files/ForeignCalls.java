package corpus.files;

import com.sun.jna.Library;
import com.sun.jna.Native;

/**
 * Asks the C library for the process's id through JNA, and takes the JDK's way when JNA cannot
 * load its native library, as programs that use a foreign-function library optionally do.
 */
public final class ForeignCalls {
    /** The one C function called. */
    public interface LibC extends Library {
        int getpid();
    }

    public static void main(String[] args) {
        long pid;
        String through;
        try {
            pid = Native.load("c", LibC.class).getpid();
            through = "jna";
        } catch (LinkageError e) {
            pid = ProcessHandle.current().pid();
            through = "java";
        }
        System.out.println("own pid through " + through + ": " + (pid == ProcessHandle.current().pid()));
    }
}
