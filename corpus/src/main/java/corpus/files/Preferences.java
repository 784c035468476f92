package corpus.files;

import java.util.prefs.BackingStoreException;

/**
 * Stores user preferences through {@code java.util.prefs}, whose file store ({@code
 * -Djava.util.prefs.userRoot=DIR}) makes its directory, sets its permissions and locks its files
 * in native code: a value written, flushed, read back, a child node listed and removed. A replay
 * makes no directory and locks nothing, and prints what the recording did, whether or not the
 * directory exists where it runs.
 */
public final class Preferences {
    public static void main(String[] args) throws BackingStoreException {
        java.util.prefs.Preferences root = java.util.prefs.Preferences.userRoot().node("corpus");
        root.put("greeting", "hello");
        root.putInt("count", root.getInt("count", 0) + 1);
        root.node("child").put("k", "v");
        root.flush();
        System.out.println("greeting " + root.get("greeting", "?") + ", count " + root.getInt("count", -1));
        System.out.println("children " + String.join(",", root.childrenNames()));
        root.node("child").removeNode();
        root.flush();
        System.out.println("after removal " + String.join(",", root.childrenNames()));
    }
}
