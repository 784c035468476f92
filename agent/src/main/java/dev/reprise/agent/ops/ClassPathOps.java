package dev.reprise.agent.ops;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodType;
import java.net.URL;
import java.util.Collections;
import java.util.Enumeration;

import dev.reprise.agent.runtime.JdkMethods;
import dev.reprise.agent.runtime.Rt;

/**
 * Class and resource lookups of the JDK's built-in class loaders on the class path (opening the
 * jars is {@link ArchiveOps}'s). The first lookup past a class path entry opens it (a directory
 * is canonicalized, a jar checked for existence), and which thread does it, and when, differs between a recording and its
 * replay: the recording's start-up may look a resource up where the replay does not. The class
 * path is part of the program, which replay requires unchanged, so these run live and unlogged.
 * A look-up of all the resources of a name walks the class path lazily, as the program iterates
 * them, opening entries as it goes: it is walked whole at the look-up instead, while the call is
 * claimed, so no entry is opened in the program's own context.
 */
public final class ClassPathOps {
    private static final String LOADER = "jdk/internal/loader/BuiltinClassLoader";

    private static final MethodHandle FIND_CLASS_LIVE = lookup("findClassOnClassPathOrNull", Class.class);
    private static final MethodHandle FIND_RESOURCE_LIVE = lookup("findResourceOnClassPath", URL.class);
    private static final MethodHandle FIND_RESOURCES_LIVE = lookup("findResourcesOnClassPath", Enumeration.class);

    private ClassPathOps() {
    }

    private static MethodHandle lookup(String name, Class<?> ret) {
        MethodHandle mh = JdkMethods.special(JdkMethods.jdkClass("jdk.internal.loader.BuiltinClassLoader"), name,
                MethodType.methodType(ret, String.class));
        return mh.asType(mh.type().changeParameterType(0, Object.class));
    }

    @Prologue(owner = LOADER, method = "findClassOnClassPathOrNull", desc = "(Ljava/lang/String;)Ljava/lang/Class;")
    public static Class<?> findClass(Object loader, String name) throws Throwable {
        try {
            return (Class<?>) FIND_CLASS_LIVE.invokeExact(loader, name);
        } finally {
            Rt.release();
        }
    }

    @Prologue(owner = LOADER, method = "findResourceOnClassPath", desc = "(Ljava/lang/String;)Ljava/net/URL;")
    public static URL findResource(Object loader, String name) throws Throwable {
        try {
            return (URL) FIND_RESOURCE_LIVE.invokeExact(loader, name);
        } finally {
            Rt.release();
        }
    }

    @Prologue(owner = LOADER, method = "findResourcesOnClassPath", desc = "(Ljava/lang/String;)Ljava/util/Enumeration;")
    public static Enumeration<URL> findResources(Object loader, String name) throws Throwable {
        try {
            @SuppressWarnings("unchecked")
            Enumeration<URL> lazy = (Enumeration<URL>) FIND_RESOURCES_LIVE.invokeExact(loader, name);
            return Collections.enumeration(Collections.list(lazy));
        } finally {
            Rt.release();
        }
    }
}
