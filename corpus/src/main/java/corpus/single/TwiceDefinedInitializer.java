package corpus.single;

import corpus.Expect;
import java.io.IOException;
import java.io.InputStream;

/**
 * Defines one class twice, in two loaders that do not delegate, as a build tool's plugin realms
 * each define their own copy of a shared library: each copy's static initializer reads the clock,
 * so each has recorded events of its own, in a stream named for the class and its definition's
 * rank.
 */
@Expect(orders = "rto", plainRunsDiffer = true)
public final class TwiceDefinedInitializer extends ClassLoader {
    private TwiceDefinedInitializer() {
        super(TwiceDefinedInitializer.class.getClassLoader());
    }

    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
        synchronized (getClassLoadingLock(name)) {
            Class<?> c = findLoadedClass(name);
            if (c == null) {
                c = name.startsWith("java.") ? getParent().loadClass(name) : findClass(name);
            }
            return c;
        }
    }

    @Override
    protected Class<?> findClass(String name) throws ClassNotFoundException {
        try (InputStream in = getParent().getResourceAsStream(name.replace('.', '/') + ".class")) {
            if (in == null) {
                throw new ClassNotFoundException(name);
            }
            byte[] bytes = in.readAllBytes();
            return defineClass(name, bytes, 0, bytes.length);
        } catch (IOException e) {
            throw new ClassNotFoundException(name, e);
        }
    }

    /** Defined by each loader; its initializer's clock reading is an event of that definition's. */
    public static final class Started {
        static final long AT = System.nanoTime();

        public static long at() {
            return AT;
        }
    }

    public static void main(String[] args) throws Exception {
        long first = (long) new TwiceDefinedInitializer().loadClass(Started.class.getName()).getMethod("at").invoke(null);
        long second = (long) new TwiceDefinedInitializer().loadClass(Started.class.getName()).getMethod("at").invoke(null);
        System.out.println("first copy started at " + first + ", second " + (second - first) + " ns later");
    }
}
