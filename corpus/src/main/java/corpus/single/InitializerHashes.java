package corpus.single;

import corpus.Expect;
import java.util.ArrayList;
import java.util.List;

/**
 * Identity hashes first taken in a class initializer that runs inside another and makes no
 * recorded call: a recording gives such an initializer no stream, as it logged nothing. Expected:
 * a replay prints the recording's values, though plain runs print values of their own.
 */
@Expect(orders = "rto", plainRunsDiffer = true)
public final class InitializerHashes {
    private InitializerHashes() {
    }

    enum Color {
        RED, GREEN, BLUE
    }

    static final class Outer {
        static final int COUNT = Inner.HASHES.size();
    }

    static final class Inner {
        static final List<Integer> HASHES = new ArrayList<>();

        static {
            for (Color c : Color.values()) {
                HASHES.add(c.hashCode());
            }
            for (int i = 0; i < 3; i++) {
                HASHES.add(System.identityHashCode(new Object()));
            }
        }
    }

    public static void main(String[] args) {
        // A clock-driven number of earlier identity hashes makes every plain run differ.
        long warmUp = System.nanoTime() % 97;
        for (long i = 0; i < warmUp; i++) {
            new Object().hashCode();
        }
        System.out.println(Outer.COUNT + " hashes: " + Inner.HASHES);
        System.out.println("again: " + Color.RED.hashCode() + " " + Color.BLUE.hashCode());
    }
}
