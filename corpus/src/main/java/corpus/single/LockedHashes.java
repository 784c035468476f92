package corpus.single;

import java.util.HashMap;
import java.util.Map;

/**
 * Identity hashes of objects whose monitor is locked or inflated, whose headers hold a lock
 * pointer instead of the hash: an object keeps its hash, and hash maps keep finding it. Prints
 * the same in every run. With an argument, waits that many milliseconds before the last check,
 * for a JVM told to deflate idle monitors sooner to deflate the one the JVM's hash inflated.
 */
public final class LockedHashes {
    private LockedHashes() {
    }

    public static void main(String[] args) throws InterruptedException {
        Map<Object, String> map = new HashMap<>();

        Object held = new Object();
        map.put(held, "held");
        int before = held.hashCode();
        synchronized (held) {
            check("hashed, then locked", held.hashCode() == before && "held".equals(map.get(held)));
        }

        Object fresh = new Object();
        synchronized (fresh) {
            map.put(fresh, "fresh");
            check("hashed while locked", "fresh".equals(map.get(fresh)));
        }
        check("hashed while locked, then unlocked", "fresh".equals(map.get(fresh)));

        // A wait inflates the monitor; the JVM deflates it some time after the monitor is released.
        Object waited = new Object();
        synchronized (waited) {
            waited.wait(1);
        }
        map.put(waited, "waited");
        check("hashed while inflated", "waited".equals(map.get(waited)) && waited.hashCode() == waited.hashCode());

        // The JDK's own monitor (StringBuffer's synchronized append) held while the program hashes.
        StringBuffer buffer = new StringBuffer();
        map.put(buffer, "buffer");
        buffer.append(new Object() {
            @Override
            public String toString() {
                return String.valueOf(map.get(buffer));
            }
        });
        check("hashed, then locked by the JDK", "buffer".equals(buffer.toString()));

        // First hashed while the JDK's own monitor is held, which the JVM took with no event of
        // Reprise's before it: StringBuffer.append, reached through Appendable, asks the appended
        // sequence its length with the buffer locked.
        StringBuffer appended = new StringBuffer();
        int[] inside = new int[1];
        CharSequence hashing = new CharSequence() {
            @Override
            public int length() {
                inside[0] = System.identityHashCode(appended);
                map.put(appended, "appended");
                return 0;
            }

            @Override
            public char charAt(int index) {
                throw new IndexOutOfBoundsException(index);
            }

            @Override
            public CharSequence subSequence(int start, int end) {
                return "";
            }

            @Override
            public String toString() {
                return "";
            }
        };
        Appendable appendable = appended;
        try {
            appendable.append(hashing);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        if (args.length > 0) {
            Thread.sleep(Long.parseLong(args[0]));
        }
        check("hashed while locked by the JDK, then unlocked", System.identityHashCode(appended) == inside[0]
                && appended.hashCode() == inside[0] && "appended".equals(map.get(appended)));
    }

    private static void check(String what, boolean same) {
        System.out.println(what + ": " + (same ? "same hash" : "HASH CHANGED"));
    }
}
