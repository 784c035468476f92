package dev.reprise.agent.ops.classes;

import java.io.File;
import java.io.IOException;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodType;

import dev.reprise.agent.ops.CallSite;
import dev.reprise.agent.ops.RecordingCopies;
import dev.reprise.agent.runtime.events.Digest;
import dev.reprise.agent.runtime.events.Divergence;
import dev.reprise.agent.runtime.events.Ev;
import dev.reprise.agent.runtime.events.Op;
import dev.reprise.agent.runtime.events.Rt;
import dev.reprise.agent.runtime.jdk.JdkMethods;

/**
 * Loading a native library from a file outside the JDK ({@code System.load}, {@code loadLibrary}).
 * The file is part of the program's input, and often its own output: a library extracted from a
 * jar to a temporary file that a replay, which writes nothing, does not have. The recording loads
 * the file itself and keeps a copy of it under its own name ({@code native-<crc>-<size>/<name>} in
 * its directory), and a replay loads that copy in its place, so the program's native methods
 * exist on replay as they did. The name matters: a library may read its own path as it loads
 * (Netty's native transports derive their package from it, and refuse to load under another).
 * A load that failed is made again on replay, from the copy, for what the library's load
 * function did before it failed (its messages on stderr), and then fails as recorded. A native
 * network transport is not loaded at all ({@link UnrecordedNatives}), nor a foreign-function library.
 */
public final class NativeLibraryOps {
    private static final String LIBRARIES = "jdk/internal/loader/NativeLibraries";
    private static final String IMPL = "jdk/internal/loader/NativeLibraries$NativeLibraryImpl";
    private static final Op LOAD = Op.named("native.library.load");
    private static final String KIND = "native";
    /** The JDK's own libraries load live and unlogged: Reprise's own work loads some at other moments. */
    private static final String JAVA_HOME = canonicalJavaHome();

    /** {@code load(impl, name, isBuiltin, isJNI, throwIfFail)} on JDK 17. */
    private static final MethodHandle LOAD_17 = loadHandle(boolean.class, boolean.class, boolean.class);
    /** {@code load(impl, name, isBuiltin, throwIfFail)} from JDK 19 on. */
    private static final MethodHandle LOAD_LATER = loadHandle(boolean.class, boolean.class);

    private NativeLibraryOps() {
    }

    @CallSite(kind = CallSite.Kind.STATIC, owner = LIBRARIES, method = "load",
            desc = "(Ljdk/internal/loader/NativeLibraries$NativeLibraryImpl;Ljava/lang/String;ZZZ)Z", alsoIn = IMPL)
    public static boolean load(Object impl, String name, boolean builtin, boolean jni, boolean throwIfFail, int site)
            throws Throwable {
        if (builtin || name.startsWith(JAVA_HOME) || !Rt.claim()) {
            return (boolean) LOAD_17.invokeExact(impl, name, builtin, jni, throwIfFail);
        }
        return load(site, name, new Loader() {
            @Override
            public boolean load(String file) throws Throwable {
                return (boolean) LOAD_17.invokeExact(impl, file, builtin, jni, throwIfFail);
            }
        });
    }

    @CallSite(kind = CallSite.Kind.STATIC, owner = LIBRARIES, method = "load",
            desc = "(Ljdk/internal/loader/NativeLibraries$NativeLibraryImpl;Ljava/lang/String;ZZ)Z", alsoIn = IMPL)
    public static boolean load(Object impl, String name, boolean builtin, boolean throwIfFail, int site)
            throws Throwable {
        if (builtin || name.startsWith(JAVA_HOME) || !Rt.claim()) {
            return (boolean) LOAD_LATER.invokeExact(impl, name, builtin, throwIfFail);
        }
        return load(site, name, new Loader() {
            @Override
            public boolean load(String file) throws Throwable {
                return (boolean) LOAD_LATER.invokeExact(impl, file, builtin, throwIfFail);
            }
        });
    }

    /** The JDK's load of one file, by its path. */
    private interface Loader {
        boolean load(String file) throws Throwable;
    }

    /**
     * Records the name of the copy (empty for a missing file), what the load threw, and the
     * outcome. A replay loads the copy, if there is one, and stops if its outcome differs, since
     * the program's native methods would then differ too; it throws what the recording's threw.
     */
    private static boolean load(int site, String name, Loader jdk) throws Throwable {
        Ev ev = Ev.begin(LOAD, site, Digest.of(name));
        Throwable recorded;
        try {
            boolean recording = ev.recording();
            Throwable refused = recording ? UnrecordedNatives.refusal(name) : null;
            String copy = ev.s(!recording ? null : refused != null ? "" : RecordingCopies.copyNamed(name, KIND));
            String file = recording ? (refused != null ? null : name)
                    : copy.isEmpty() ? null
                    : RecordingCopies.checked(copy, KIND, null, "a native library the program loaded").toString();
            boolean loaded = false;
            Throwable failed = refused;
            if (file != null) {
                try {
                    loaded = jdk.load(file);
                } catch (Throwable t) {
                    failed = t;
                }
                if (loaded) {
                    SystemLibraries.loaded(file);
                }
            }
            // Without a copy (the file was missing, or refused) a replay loads nothing: the outcome is the recorded one.
            recorded = ev.failure(failed);
            if (file != null && (recorded == null) != (failed == null)) {
                Divergence.mismatch("native library load", "loading " + name + " (the recording's copy " + copy + ") "
                        + (failed == null ? "succeeded" : "threw " + failed) + " where the recording's "
                        + (recorded == null ? "did not throw" : "threw " + recorded));
            }
            if (recorded == null) {
                boolean outcome = ev.z(loaded);
                if (file != null && outcome != loaded) {
                    Divergence.mismatch("native library load",
                            "loading " + name + " (the recording's copy " + copy + ") " + (loaded ? "succeeded" : "failed")
                                    + " where the recording's " + (loaded ? "failed" : "succeeded"));
                }
                return outcome;
            }
        } catch (Throwable t) {
            throw ev.threw(t);
        } finally {
            ev.end();
        }
        throw recorded; // a value of the event, not what the hook threw: outside the handler that would log it so
    }

    private static String canonicalJavaHome() {
        try {
            return new File(System.getProperty("java.home")).getCanonicalPath() + "/";
        } catch (IOException e) {
            return System.getProperty("java.home") + "/";
        }
    }

    private static MethodHandle loadHandle(Class<?>... flags) {
        Class<?>[] params = new Class<?>[2 + flags.length];
        params[0] = Object.class;
        params[1] = String.class;
        System.arraycopy(flags, 0, params, 2, flags.length);
        Class<?>[] exact = params.clone();
        exact[0] = JdkMethods.jdkClass(IMPL.replace('/', '.'));
        MethodHandle h = JdkMethods.statikIfPresent(LIBRARIES.replace('/', '.'), "load",
                MethodType.methodType(boolean.class, exact));
        return h == null ? null : h.asType(MethodType.methodType(boolean.class, params));
    }
}
