package dev.reprise.agent.ops;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodType;

import dev.reprise.agent.runtime.JdkMethods;
import dev.reprise.agent.runtime.Rt;

/**
 * Class loading is not an event. A class loader reads class files (from jars, directories, or
 * wherever a custom loader gets them) at moments the JVM picks, which differ between a recording
 * and a replay; the bytes are the program's code, which replay runs from the same class path.
 * Everything a {@code loadClass} call does therefore runs live and unlogged.
 */
public final class ClassLoadingOps {
    private static final MethodHandle LOAD_CLASS_LIVE =
            JdkMethods.special(ClassLoader.class, "loadClass", MethodType.methodType(Class.class, String.class));

    private ClassLoadingOps() {
    }

    @Prologue(owner = "java/lang/ClassLoader", method = "loadClass", desc = "(Ljava/lang/String;)Ljava/lang/Class;")
    public static Class<?> loadClass(ClassLoader self, String name) throws Throwable {
        try {
            return (Class<?>) LOAD_CLASS_LIVE.invokeExact(self, name);
        } finally {
            Rt.release();
        }
    }
}
