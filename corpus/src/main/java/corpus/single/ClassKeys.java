package corpus.single;

import corpus.Expect;
import java.lang.invoke.MethodType;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Classes as hash keys, after the JDK hashed them in its own code: a {@code MethodType}'s hash is
 * its classes' identity hashes, as linking a lambda or a method handle computes it. A hash set of
 * the classes iterates in an order that follows their identity hashes. The classes of two lambdas
 * are hidden, the JDK hashes them while linking them, and their names hold addresses: they are
 * named here by their places.
 *
 * <p>Then the same for classes the JVM made before the program began (array classes, which
 * Reprise's own start-up may hash first as the parameter types of its method handles), in a
 * concurrent map, whose bins and whose iteration order follow their hashes.
 */
@Expect(orders = "rto", plainRunsDiffer = true)
public final class ClassKeys {
    static final class Alpha {
    }

    static final class Beta {
    }

    static final class Gamma {
    }

    static final class Delta {
    }

    static final class Epsilon {
    }

    static final class Zeta {
    }

    static final class Eta {
    }

    static final class Theta {
    }

    private ClassKeys() {
    }

    public static void main(String[] args) {
        // A clock-driven number of earlier identity hashes makes every plain run differ.
        long warmUp = System.nanoTime() % 97;
        for (long i = 0; i < warmUp; i++) {
            new Object().hashCode();
        }
        Runnable first = () -> { };
        Runnable second = () -> System.out.println(args.length);
        List<Class<?>> lambdas = List.of(first.getClass(), second.getClass());
        List<Class<?>> classes = List.of(Alpha.class, Beta.class, Gamma.class, Delta.class, Epsilon.class, Zeta.class,
                Eta.class, Theta.class, lambdas.get(0), lambdas.get(1));
        for (Class<?> c : classes) {
            MethodType.methodType(c);
        }
        Set<Class<?>> set = new HashSet<>(classes);
        StringBuilder order = new StringBuilder("class HashSet:");
        for (Class<?> c : set) {
            order.append(' ').append(lambdas.contains(c) ? "lambda-" + lambdas.indexOf(c) : c.getSimpleName());
        }
        System.out.println(order);

        Map<Class<?>, Integer> early = new ConcurrentHashMap<>();
        List<Class<?>> made = List.of(byte[].class, char[].class, short[].class, int[].class, long[].class,
                float[].class, double[].class, boolean[].class, Object[].class, String[].class, Class[].class,
                Thread[].class, StackTraceElement[].class, Integer.class, Long.class, Character.class, Runtime.class);
        for (Class<?> c : made) {
            early.put(c, early.size());
        }
        StringBuilder kept = new StringBuilder("JDK classes in a ConcurrentHashMap:");
        for (Class<?> c : early.keySet()) {
            kept.append(' ').append(c.getSimpleName());
        }
        System.out.println(kept);
    }
}
