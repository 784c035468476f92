package corpus.single;

import corpus.Expect;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Vector;

/**
 * Objects the program first hashes while the JVM holds their monitor, taken by a JDK synchronized
 * method that the program reaches through the JDK's own code: {@code String.valueOf} calls
 * {@code Vector.toString}, which runs each element's {@code toString} with the vector locked, as a
 * mock maker's advice woven into a synchronized JDK method runs with its receiver locked and
 * looks the receiver up by identity. A map keyed by those hashes iterates in an order that
 * follows them, and so does one keyed by the hashes asked again once the vectors are unlocked.
 */
@Expect(orders = "rto", plainRunsDiffer = true)
public final class HashedUnderJdkLock {
    private static final Map<Integer, String> BY_HASH = new HashMap<>();
    private static final Map<Integer, String> UNLOCKED = new HashMap<>();

    static final class Element {
        final String label;
        Vector<Element> owner;

        Element(String label) {
            this.label = label;
        }

        @Override
        public String toString() {
            BY_HASH.put(System.identityHashCode(owner), label);
            return label;
        }
    }

    private HashedUnderJdkLock() {
    }

    public static void main(String[] args) {
        // The JVM's identity hashes follow a per-thread sequence: a clock-driven number of earlier
        // hashes makes every plain run differ.
        long warmUp = System.nanoTime() % 97;
        for (long i = 0; i < warmUp; i++) {
            new Object().hashCode();
        }
        for (int i = 0; i < 16; i++) {
            Element element = new Element("v" + i);
            // Built from a list, not by add (a synchronized call, which Reprise orders by the vector
            // and so hashes it first).
            Vector<Element> vector = new Vector<>(List.of(element));
            element.owner = vector;
            String.valueOf(vector);
            UNLOCKED.put(System.identityHashCode(vector), element.label);
        }
        System.out.println("hashed under the JDK's lock: " + BY_HASH.values());
        System.out.println("hashed again, unlocked: " + UNLOCKED.values());
    }
}
