package dev.reprise.agent.ops.classes;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodType;

import dev.reprise.agent.ops.Prologue;
import dev.reprise.agent.runtime.events.Rt;
import dev.reprise.agent.runtime.jdk.JdkMethods;

/**
 * Class loading and call-site linking are not events. A class loader reads class files (from jars, directories, or
 * wherever a custom loader gets them) at moments the JVM picks, which differ between a recording
 * and a replay; the bytes are the program's code, which replay runs from the same class path.
 * Linking an {@code invokedynamic} call site or a dynamic constant (lambdas, string
 * concatenation) is the same: lazy, on whichever thread first runs it, and the program's code.
 * Everything a {@code loadClass} or a bootstrap call does therefore runs live and unlogged: under
 * the prologue of the JDK's {@code loadClass(String)}, which the JVM calls, and in the body of a
 * program's loader that overrides it ({@code instrument/UnloggedRewriter}).
 */
public final class ClassLoadingOps {
    private static final MethodHandle LOAD_CLASS_LIVE =
            JdkMethods.special(ClassLoader.class, "loadClass", MethodType.methodType(Class.class, String.class));

    /** Reflection, not a method handle: no lookup may be had in java.lang.invoke. Linking is rare. */
    private static final java.lang.reflect.Method BOOTSTRAP_LIVE = bootstrapInvoker();

    private static final String OWN_PACKAGE = "dev.reprise.";

    private ClassLoadingOps() {
    }

    private static java.lang.reflect.Method bootstrapInvoker() {
        try {
            java.lang.reflect.Method m = JdkMethods.jdkClass("java.lang.invoke.BootstrapMethodInvoker").getDeclaredMethod(
                    "invoke", Class.class, MethodHandle.class, String.class, Object.class, Object.class, Class.class);
            m.setAccessible(true);
            return m;
        } catch (NoSuchMethodException e) {
            throw new IllegalStateException(e);
        }
    }

    @Prologue(owner = "java/lang/invoke/BootstrapMethodInvoker", method = "invoke",
            desc = "(Ljava/lang/Class;Ljava/lang/invoke/MethodHandle;Ljava/lang/String;Ljava/lang/Object;Ljava/lang/Object;Ljava/lang/Class;)Ljava/lang/Object;")
    public static Object bootstrap(Class<?> type, MethodHandle bsm, String name, Object callType, Object info,
                                   Class<?> caller) throws Throwable {
        try {
            return BOOTSTRAP_LIVE.invoke(null, type, bsm, name, callType, info, caller);
        } catch (java.lang.reflect.InvocationTargetException e) {
            throw e.getCause();
        } finally {
            Rt.release();
        }
    }

    /**
     * The JVM resolves a class's references through its loader's {@code loadClass(String)}. A
     * loader that does not delegate (Ant's for its {@code java} task, OSGi's bundles) cannot find
     * Reprise's classes, which the instrumented code calls; they are the boot loader's.
     */
    @Prologue(owner = "java/lang/ClassLoader", method = "loadClass", desc = "(Ljava/lang/String;)Ljava/lang/Class;")
    public static Class<?> loadClass(ClassLoader self, String name) throws Throwable {
        if (name.startsWith(OWN_PACKAGE)) {
            return Class.forName(name, false, null);
        }
        return (Class<?>) LOAD_CLASS_LIVE.invokeExact(self, name);
    }
}
