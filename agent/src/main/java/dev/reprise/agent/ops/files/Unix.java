package dev.reprise.agent.ops.files;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.nio.file.Path;

import dev.reprise.agent.runtime.events.Digest;
import dev.reprise.agent.runtime.jdk.JdkFiles;
import dev.reprise.agent.runtime.jdk.JdkMethods;

/**
 * The JDK's {@code sun.nio.fs.UnixNativeDispatcher}, which hooks cannot name at compile time:
 * handles to its methods typed with public types ({@code UnixPath} as {@link Path}, other
 * internal types as {@code Object}), and its {@code UnixException} as a plain errno. Hooks log
 * the errno instead of the exception, so that replay rethrows an exception the JDK maps to the
 * same {@code IOException} ({@code NoSuchFileException}, {@code FileAlreadyExistsException}, ...).
 */
final class Unix {
    static final Class<?> DISPATCHER = JdkMethods.jdkClass("sun.nio.fs.UnixNativeDispatcher");
    static final Class<?> PATH = JdkMethods.jdkClass("sun.nio.fs.UnixPath");
    static final Class<?> ATTRS = JdkMethods.jdkClass("sun.nio.fs.UnixFileAttributes");
    private static final Class<?> EXCEPTION = JdkMethods.jdkClass("sun.nio.fs.UnixException");
    private static final MethodHandle ERRNO = JdkMethods.special(EXCEPTION, "errno", MethodType.methodType(int.class))
            .asType(MethodType.methodType(int.class, Throwable.class));
    private static final MethodHandle NEW_EXCEPTION = constructor();

    private Unix() {
    }

    /** A static method of the dispatcher, or null where this JDK version lacks it. */
    static MethodHandle optional(String name, Class<?> ret, Class<?>... params) {
        try {
            MethodHandle h = MethodHandles.privateLookupIn(DISPATCHER, MethodHandles.lookup())
                    .findStatic(DISPATCHER, name, MethodType.methodType(ret, params));
            return h.asType(erase(h.type()));
        } catch (ReflectiveOperationException e) {
            return null;
        }
    }

    static MethodHandle method(String name, Class<?> ret, Class<?>... params) {
        MethodHandle h = optional(name, ret, params);
        if (h == null) {
            throw new IllegalStateException("cannot reach " + DISPATCHER.getName() + "." + name);
        }
        return h;
    }

    private static MethodType erase(MethodType t) {
        for (int i = 0; i < t.parameterCount(); i++) {
            Class<?> c = t.parameterType(i);
            t = t.changeParameterType(i, c == PATH ? Path.class : c.getName().startsWith("sun.") ? Object.class : c);
        }
        return t;
    }

    private static MethodHandle constructor() {
        try {
            return MethodHandles.privateLookupIn(EXCEPTION, MethodHandles.lookup())
                    .findConstructor(EXCEPTION, MethodType.methodType(void.class, int.class))
                    .asType(MethodType.methodType(Throwable.class, int.class));
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot reach " + EXCEPTION.getName() + "(int)", e);
        }
    }

    /**
     * The errno of a live call's {@code UnixException}; any other throwable is rethrown. Hooks
     * catch and call this in plain Java rather than through method handle combinators, whose
     * classes each JVM would spin at start-up.
     */
    static int errno(Throwable t) throws Throwable {
        int errno = EXCEPTION.isInstance(t) ? (int) ERRNO.invokeExact(t) : 0;
        if (errno == 0) {
            throw t;
        }
        return errno;
    }

    /** Throws the {@code UnixException} of a logged, non-zero errno. */
    static void check(int errno) throws Throwable {
        if (errno != 0) {
            throw (Throwable) NEW_EXCEPTION.invokeExact(errno);
        }
    }

    /** The digest of a path argument. */
    static int digest(Path p) {
        return p == null ? 0 : Digest.of(p.toString());
    }

    /** The path to use live when {@code p} is one of the JDK's own files; null otherwise. */
    static Path jdkPath(Path p) {
        String s = p == null ? null : p.toString();
        if (!JdkFiles.isJdkPath(s)) {
            return null;
        }
        String live = JdkFiles.live(s);
        return live.equals(s) ? p : p.getFileSystem().getPath(live);
    }
}
