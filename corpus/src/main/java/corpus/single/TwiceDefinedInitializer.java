package corpus.single;

import corpus.Expect;

/**
 * Defines one class twice, in two loaders that do not delegate ({@link IsolatedLoader}), as a
 * build tool's plugin realms each define their own copy of a shared library: each copy's static
 * initializer reads the clock, so each has recorded events of its own, in a stream named for the
 * class and its definition's rank.
 */
@Expect(orders = "rto", plainRunsDiffer = true)
public final class TwiceDefinedInitializer {
    private TwiceDefinedInitializer() {
    }

    /** Defined by each loader; its initializer's clock reading is an event of that definition's. */
    public static final class Started {
        static final long AT = System.nanoTime();

        public static long at() {
            return AT;
        }
    }

    public static void main(String[] args) throws Exception {
        long first = (long) new IsolatedLoader().loadClass(Started.class.getName()).getMethod("at").invoke(null);
        long second = (long) new IsolatedLoader().loadClass(Started.class.getName()).getMethod("at").invoke(null);
        System.out.println("first copy started at " + first + ", second " + (second - first) + " ns later");
    }
}
