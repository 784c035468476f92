package dev.reprise.agent.ops.classes;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.invoke.VarHandle;
import java.lang.ref.SoftReference;
import java.lang.reflect.Constructor;
import java.lang.reflect.Executable;
import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.Comparator;

import dev.reprise.agent.ops.CallSite;
import dev.reprise.agent.runtime.jdk.JdkMethods;

/**
 * Order of reflected methods and constructors. HotSpot lists a class's methods sorted by the
 * addresses of their name symbols, which differ from run to run (visibly without CDS), and
 * {@code getDeclaredMethods}, {@code getMethods}, {@code getDeclaredConstructors} and
 * {@code getConstructors} all follow that list. The two natives {@code java.lang.Class} fills its
 * reflection cache from are replaced by calls that sort their fresh arrays by name and
 * signature: on every thread, so the cache holds one order whoever fills it, and at no cost per
 * reflective call. Nothing is logged: the order is a function of the class alone.
 * Fields need nothing: the JVM lists them in class-file order. Caches filled before
 * {@code java.lang.Class} was instrumented (by the JDK's boot, by Reprise's own start-up) are
 * dropped once it is ({@link #forgetOrders}), and refill in order.
 */
public final class ReflectionOrder {
    private static final MethodHandle METHODS = JdkMethods.special(Class.class, "getDeclaredMethods0",
            MethodType.methodType(Method[].class, boolean.class));
    private static final MethodHandle CONSTRUCTORS = JdkMethods.special(Class.class, "getDeclaredConstructors0",
            MethodType.methodType(Constructor[].class, boolean.class));
    private static final Comparator<Executable> BY_SIGNATURE = new BySignature();
    private static final VarHandle CACHE;

    static {
        try {
            CACHE = MethodHandles.privateLookupIn(Class.class, MethodHandles.lookup())
                    .findVarHandle(Class.class, "reflectionData", SoftReference.class);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot reach Class.reflectionData", e);
        }
        // Links the two invokeExact call sites now, in premain. Linking one later runs
        // java.lang.invoke code that hashes classes, and hashing a class may reflect on it
        // (IdentityHashes), which comes back here before the site is linked: endlessly.
        try {
            declaredMethods(ReflectionOrder.class, false);
            declaredConstructors(ReflectionOrder.class, false);
        } catch (Throwable e) {
            throw new IllegalStateException("cannot list ReflectionOrder's own methods", e);
        }
    }

    private ReflectionOrder() {
    }

    /** Drops the reflection caches of classes loaded so far, as the JDK does when it redefines a class. */
    public static void forgetOrders(Class<?>[] loaded) {
        for (Class<?> c : loaded) {
            CACHE.setVolatile(c, (SoftReference<?>) null);
        }
    }

    @CallSite(kind = CallSite.Kind.VIRTUAL, owner = "java/lang/Class", method = "getDeclaredMethods0",
            desc = "(Z)[Ljava/lang/reflect/Method;", alsoIn = "java/lang/Class")
    public static Method[] declaredMethods(Class<?> c, boolean publicOnly) throws Throwable {
        Method[] methods = (Method[]) METHODS.invokeExact(c, publicOnly);
        Arrays.sort(methods, BY_SIGNATURE);
        return methods;
    }

    @CallSite(kind = CallSite.Kind.VIRTUAL, owner = "java/lang/Class", method = "getDeclaredConstructors0",
            desc = "(Z)[Ljava/lang/reflect/Constructor;", alsoIn = "java/lang/Class")
    public static Constructor<?>[] declaredConstructors(Class<?> c, boolean publicOnly) throws Throwable {
        Constructor<?>[] constructors = (Constructor<?>[]) CONSTRUCTORS.invokeExact(c, publicOnly);
        Arrays.sort(constructors, BY_SIGNATURE);
        return constructors;
    }

    /** Name, then parameter types, then return type: unique within one class. */
    private static final class BySignature implements Comparator<Executable> {
        @Override
        public int compare(Executable a, Executable b) {
            int d = a.getName().compareTo(b.getName());
            if (d != 0) {
                return d;
            }
            d = Integer.compare(a.getParameterCount(), b.getParameterCount());
            if (d != 0) {
                return d;
            }
            Class<?>[] pa = a.getParameterTypes();
            Class<?>[] pb = b.getParameterTypes();
            for (int i = 0; i < pa.length; i++) {
                d = pa[i].getName().compareTo(pb[i].getName());
                if (d != 0) {
                    return d;
                }
            }
            if (a instanceof Method ma && b instanceof Method mb) {
                return ma.getReturnType().getName().compareTo(mb.getReturnType().getName());
            }
            return 0;
        }
    }
}
