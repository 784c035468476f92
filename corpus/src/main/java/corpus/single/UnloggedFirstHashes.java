package corpus.single;

import corpus.Expect;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.ListResourceBundle;
import java.util.Map;
import java.util.ResourceBundle;
import java.util.Set;

/**
 * Objects first hashed where Reprise logs nothing, then hashed by the program. The JDK loads a
 * resource bundle unlogged (whichever thread misses it first loads it), and the program's own
 * bundle class runs there: it makes tokens and puts them in a hash set. Later the program keys a
 * map by the same tokens and prints it. A replay runs the bundle's code too, but among other work
 * of Reprise's own than the recording's, so a hash drawn from the JVM there would differ. Half
 * the tokens are hashed under their own monitor, whose lock holds the header as the hash is given.
 */
@Expect(plainRunsDiffer = true)
public final class UnloggedFirstHashes {
    private static final List<Object> MADE = new ArrayList<>();

    private UnloggedFirstHashes() {
    }

    private static final class Token {
        private final int i;

        Token(int i) {
            this.i = i;
        }

        @Override
        public String toString() {
            return "t" + i;
        }
    }

    /** Found by name by {@code ResourceBundle.getBundle}. */
    public static final class Names extends ListResourceBundle {
        public Names() {
            Set<Object> seen = new HashSet<>();
            for (int i = 0; i < 16; i++) {
                Token t = new Token(i);
                if (i % 2 == 0) {
                    synchronized (t) {
                        seen.add(t);
                    }
                } else {
                    seen.add(t);
                }
                MADE.add(t);
            }
        }

        @Override
        protected Object[][] getContents() {
            return new Object[][] {{"greeting", "tokens by hash:"}};
        }
    }

    public static void main(String[] args) {
        // The JVM's identity hashes follow a per-thread sequence: a clock-driven number of earlier
        // hashes makes every plain run differ.
        long warmUp = System.nanoTime() % 97;
        for (long i = 0; i < warmUp; i++) {
            new Object().hashCode();
        }
        ResourceBundle names = ResourceBundle.getBundle(Names.class.getName());
        Map<Object, String> byHash = new HashMap<>();
        for (Object o : MADE) {
            byHash.put(o, o.toString());
        }
        System.out.println(names.getString("greeting") + " " + byHash.values());
    }
}
