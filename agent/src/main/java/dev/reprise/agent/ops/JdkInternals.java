package dev.reprise.agent.ops;

import java.util.Set;

/**
 * JDK code that runs unlogged: its synchronization actions are no events. Static initializers of
 * JDK classes run when the class is first used, which Reprise's own work may cause earlier in a
 * recording than in a replay, or the reverse. The methods below maintain JDK-wide tables that
 * Reprise's own work also fills, differently when recording and replaying, so the program would
 * meet them in different states: the interned method types and the JVM's linking up-calls (every
 * method handle, lambda and {@code VarHandle} call site; the JVM links lazily, at moments that
 * differ between runs), and, on JDK 21+, the registry of thread containers (every executor).
 */
public final class JdkInternals {
    /** {@code owner.method} of every JDK method run unlogged, whatever its descriptor; {@code owner.*}: all. */
    public static final Set<String> UNLOGGED_METHODS = Set.of(
            "java/lang/invoke/MethodType.makeImpl",
            "java/lang/invoke/MethodHandleNatives.*",
            "jdk/internal/vm/ThreadContainers.registerContainer",
            "jdk/internal/vm/ThreadContainers.deregisterContainer");
    /** The classes of {@link #UNLOGGED_METHODS}. */
    private static final Set<String> OWNERS = owners();

    private JdkInternals() {
    }

    public static boolean unlogged(String owner, String method) {
        return UNLOGGED_METHODS.contains(owner + "." + method) || UNLOGGED_METHODS.contains(owner + ".*");
    }

    /** Whether a JDK class has methods in {@link #UNLOGGED_METHODS}: asked at every class load. */
    public static boolean hasUnloggedMethods(String owner) {
        return OWNERS.contains(owner);
    }

    private static Set<String> owners() {
        Set<String> owners = new java.util.HashSet<>();
        for (String m : UNLOGGED_METHODS) {
            owners.add(m.substring(0, m.indexOf('.')));
        }
        return Set.copyOf(owners);
    }
}
