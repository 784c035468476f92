package dev.reprise.agent.ops.classes;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodType;
import java.net.URL;
import java.util.Enumeration;

import dev.reprise.agent.ops.Prologue;
import dev.reprise.agent.ops.files.ArchiveOps;
import dev.reprise.agent.runtime.events.Rt;
import dev.reprise.agent.runtime.jdk.JdkMethods;

/**
 * Class and resource lookups of the JDK's built-in class loaders on the class path (opening the
 * jars is {@link ArchiveOps}'s). The first lookup past a class path entry opens it (a directory
 * is canonicalized, a jar checked for existence), and which thread does it, and when, differs between a recording and its
 * replay: the recording's start-up may look a resource up where the replay does not. The class
 * path is part of the program, which replay requires unchanged, so these run live and unlogged.
 * A look-up of all the resources of a name walks the class path lazily, as the program iterates
 * them, opening entries as it goes: each step of that walk runs unintercepted ({@link Walk}), so
 * no entry is opened in the program's own context, and entries the program does not iterate to
 * stay unopened, as in a run without Reprise.
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
        return (Class<?>) FIND_CLASS_LIVE.invokeExact(loader, name);
    }

    @Prologue(owner = LOADER, method = "findResourceOnClassPath", desc = "(Ljava/lang/String;)Ljava/net/URL;")
    public static URL findResource(Object loader, String name) throws Throwable {
        return (URL) FIND_RESOURCE_LIVE.invokeExact(loader, name);
    }

    @Prologue(owner = LOADER, method = "findResourcesOnClassPath", desc = "(Ljava/lang/String;)Ljava/util/Enumeration;")
    public static Enumeration<URL> findResources(Object loader, String name) throws Throwable {
        @SuppressWarnings("unchecked")
        Enumeration<URL> lazy = (Enumeration<URL>) FIND_RESOURCES_LIVE.invokeExact(loader, name);
        return new Walk(lazy);
    }

    /**
     * The class path's walk for one name, each step run as Reprise's own work ({@link Rt#suppress}):
     * whichever thread iterates, whenever, what a step opens is no event. Walking it whole at the
     * look-up did the same, but opened every entry for programs that read the first resource
     * only: three times the profile samples of the JDK's walk in fop (BENCHMARKS.md). Wrapped
     * here, not listed in {@code JdkInternals}: the JDK's walk ({@code URLClassPath}'s enumeration)
     * also serves the program's own {@code URLClassLoader}s, whose files a replay does not have.
     */
    private static final class Walk implements Enumeration<URL> {
        private final Enumeration<URL> lazy;

        Walk(Enumeration<URL> lazy) {
            this.lazy = lazy;
        }

        @Override
        public boolean hasMoreElements() {
            Rt.suppress();
            try {
                return lazy.hasMoreElements();
            } finally {
                Rt.unsuppress();
            }
        }

        @Override
        public URL nextElement() {
            Rt.suppress();
            try {
                return lazy.nextElement();
            } finally {
                Rt.unsuppress();
            }
        }
    }
}
