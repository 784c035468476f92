package dev.reprise.agent.runtime.jdk;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * Files of the JDK itself (time-zone data, security configuration, ...). The JDK reads them
 * lazily, at moments that differ between a recording and a replay (inside or outside an event),
 * and their content is fixed by the Java version, which replay requires to match: they are read
 * live in both, never logged. On replay a path under the recorded {@code java.home} is mapped to
 * the running one, so the JDK may live elsewhere on the replaying machine.
 */
public final class JdkFiles {
    private static String liveHome;
    private static String recordedHome;

    private JdkFiles() {
    }

    /** Called at start-up, before the recorded properties replace the live ones. */
    public static void init(String javaHome) {
        liveHome = javaHome + "/";
        recordedHome = liveHome;
    }

    /** Called on replay with the recorded {@code java.home}. */
    public static void recordedHome(String javaHome) {
        recordedHome = javaHome + "/";
    }

    public static boolean isJdkPath(String path) {
        return path != null && liveHome != null && (path.startsWith(liveHome) || path.startsWith(recordedHome));
    }

    /** The path to open: a recorded JDK path moved to the running JDK. */
    public static String live(String path) {
        return path.startsWith(recordedHome) ? liveHome + path.substring(recordedHome.length()) : path;
    }

    /** A private {@code String path} field of a java.io stream class, read without reflection per call. */
    public static VarHandle pathField(Class<?> c) {
        try {
            return MethodHandles.privateLookupIn(c, MethodHandles.lookup()).findVarHandle(c, "path", String.class);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("no path field in " + c.getName(), e);
        }
    }
}
