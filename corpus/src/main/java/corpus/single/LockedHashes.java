package corpus.single;

import java.util.HashMap;
import java.util.Map;

/**
 * Identity hashes of objects whose monitor is locked or inflated, whose headers hold a lock
 * pointer instead of the hash: an object keeps its hash, and hash maps keep finding it. Prints
 * the same in every run.
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
    }

    private static void check(String what, boolean same) {
        System.out.println(what + ": " + (same ? "same hash" : "HASH CHANGED"));
    }
}
