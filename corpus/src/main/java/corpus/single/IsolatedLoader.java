package corpus.single;

import corpus.Expect;
import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Method;

/**
 * Runs a class through a loader that does not delegate, as Ant's {@code java} task and OSGi's
 * bundles do: it defines every class itself, from this program's class files, and asks its parent
 * for the JDK's {@code java.} classes alone. The class reads the clock, so what it prints differs
 * from run to run, and a replay must have given it the recorded time through the hooks its
 * instrumented code calls, which this loader cannot find.
 */
@Expect(orders = "rto", plainRunsDiffer = true)
public final class IsolatedLoader extends ClassLoader {
    IsolatedLoader() {
        super(IsolatedLoader.class.getClassLoader());
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

    /** Loaded by the isolating loader. */
    public static final class Clock {
        public static String now() {
            return "millis " + System.currentTimeMillis() + " from a class of " + Clock.class.getClassLoader().getClass().getSimpleName();
        }
    }

    public static void main(String[] args) throws Exception {
        Class<?> clock = new IsolatedLoader().loadClass(Clock.class.getName());
        Method now = clock.getMethod("now");
        System.out.println(now.invoke(null));
    }
}
