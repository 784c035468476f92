package corpus.single;

import corpus.Expect;
import java.util.HashSet;
import java.util.Set;

/**
 * Objects whose own {@code hashCode} is their identity hash, as Jython's {@code PyObject}'s is,
 * locked before anything hashes them: a hash set of them iterates in an order that follows their
 * identity hashes.
 */
@Expect(orders = "rto", plainRunsDiffer = true)
public final class IdentityHashedLocks {
    static final class Node {
        final int n;

        Node(int n) {
            this.n = n;
        }

        @Override
        public int hashCode() {
            return System.identityHashCode(this);
        }

        @Override
        public boolean equals(Object o) {
            return o == this;
        }

        @Override
        public String toString() {
            return "n" + n;
        }
    }

    private IdentityHashedLocks() {
    }

    public static void main(String[] args) {
        // A clock-driven number of earlier identity hashes makes every plain run differ.
        long warmUp = System.nanoTime() % 97;
        for (long i = 0; i < warmUp; i++) {
            new Object().hashCode();
        }
        Set<Node> set = new HashSet<>();
        for (int i = 0; i < 40; i++) {
            Node node = new Node(i);
            synchronized (node) {
                // Reprise orders this monitor by the node: its first identity hash is taken here
            }
            set.add(node);
        }
        System.out.println("locked, then hashed: " + set);
    }
}
