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
 *
 * <p>{@code ResourceBundle.loadBundle} loads a bundle the JDK's bundle cache lacks, on the thread
 * that missed it: which thread that is, and whether a later one finds the bundle cached or loads
 * it again, is a race no event orders (the cache's own synchronization is quiet), like a static
 * initializer's. Its reads of the bundle's file, and the actions of the map it builds, are no
 * events either; the code of a program's own bundle class that it runs is not recorded, and runs
 * live on replay.
 *
 * <p>The flight recorder's commands ({@code -XX:StartFlightRecording} as the JVM starts, {@code jcmd
 * JFR.start} and the rest later) run as the JVM's work, not the program's: they make the
 * recorder's repository, named after the process and the time, and start its threads. A replay
 * runs without the flight recorder (the CLI drops its options), so nothing of it may be in the
 * recording.
 */
public final class JdkInternals {
    /** {@code owner.method} of every JDK method run unlogged, whatever its descriptor; {@code owner.*}: all. */
    public static final Set<String> UNLOGGED_METHODS = Set.of(
            "java/lang/invoke/MethodType.makeImpl",
            "java/lang/invoke/MethodHandleNatives.*",
            "jdk/internal/vm/ThreadContainers.registerContainer",
            "jdk/internal/vm/ThreadContainers.deregisterContainer",
            "java/util/ResourceBundle.loadBundle",
            "jdk/jfr/internal/dcmd/AbstractDCmd.execute");
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
