package dev.reprise.agent.ops;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodType;
import java.net.URL;
import java.util.jar.JarFile;

import dev.reprise.agent.runtime.JdkMethods;
import dev.reprise.agent.runtime.Rt;

/**
 * Jars of the class path, opened by the class loader when a class is first needed: at moments
 * that differ between a recording and a replay (the agent loads classes of its own), and read
 * live in both ({@code ZipFile} reads through {@code RandomAccessFile}). Opening one, with the
 * {@code Files.readAttributes} it makes, runs live and unlogged.
 */
public final class ClassPathOps {
    private static final Class<?> JAR_LOADER = JdkMethods.jdkClass("jdk.internal.loader.URLClassPath$JarLoader");
    private static final MethodHandle GET_JAR_FILE = JdkMethods.special(JAR_LOADER, "getJarFile",
            MethodType.methodType(JarFile.class, URL.class)).asType(MethodType.methodType(JarFile.class, Object.class, URL.class));

    private ClassPathOps() {
    }

    @Prologue(owner = "jdk/internal/loader/URLClassPath$JarLoader", method = "getJarFile",
            desc = "(Ljava/net/URL;)Ljava/util/jar/JarFile;")
    public static JarFile getJarFile(Object loader, URL url) throws Throwable {
        try {
            return (JarFile) GET_JAR_FILE.invokeExact(loader, url);
        } finally {
            Rt.release();
        }
    }
}
