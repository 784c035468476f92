package dev.reprise.agent.runtime.identity;

import java.util.Arrays;
import java.util.Set;

/**
 * Has the JVM hash the objects the program finds already made (modules, the running threads and
 * their groups, the built-in class loaders) before Reprise does any work of its own. Such an
 * object keeps the JVM's hash (the JDK's start-up tables may be keyed by it), and the JVM draws
 * each new hash from a per-thread sequence: Reprise's start-up, which differs between recording
 * and replay, hashed the class path's unnamed module and the main thread at other points of that
 * sequence, and the program printed other hashes on replay ({@code Module.toString} in the
 * messages of access errors, {@code Object.toString} of the main thread). Up to the agent's start
 * the JVM's work is the same in both.
 *
 * <p>The classes loaded by then are hashed too, in name order, and keep those hashes
 * ({@code IdentityHashes.keepClassHashes}). Before, a class Reprise's own start-up hashed first
 * (JDK 25: {@code byte[]}, a parameter type of its method handles) got a value from another
 * point of the sequence on replay, so a program's map keyed by classes filled other bins
 * (Pekko's serializer bindings).
 */
public final class StartupHashes {
    private StartupHashes() {
    }

    public static void fix(Module agentModule, Class<?>[] loaded) {
        // In name order, not the boot layer's set order, which is seeded anew by each JVM.
        Set<Module> modules = ModuleLayer.boot().modules();
        String[] names = new String[modules.size()];
        int i = 0;
        for (Module m : modules) {
            names[i++] = m.getName();
        }
        Arrays.sort(names);
        for (String name : names) {
            System.identityHashCode(ModuleLayer.boot().findModule(name).orElseThrow());
        }
        System.identityHashCode(agentModule);
        System.identityHashCode(ClassLoader.getPlatformClassLoader().getUnnamedModule());
        System.identityHashCode(ClassLoader.getSystemClassLoader().getUnnamedModule());
        System.identityHashCode(ClassLoader.getPlatformClassLoader());
        System.identityHashCode(ClassLoader.getSystemClassLoader());
        ThreadGroup root = Thread.currentThread().getThreadGroup();
        while (root.getParent() != null) {
            root = root.getParent();
        }
        System.identityHashCode(root);
        // The JVM's own threads, in the order they were made (JDK 25 lists them in the JVM's order).
        Thread[] threads = new Thread[root.activeCount() + 8];
        int n = root.enumerate(threads, true);
        for (int t = 1; t < n; t++) {
            for (int u = t; u > 0 && id(threads[u - 1]) > id(threads[u]); u--) {
                Thread swap = threads[u];
                threads[u] = threads[u - 1];
                threads[u - 1] = swap;
            }
        }
        for (int t = 0; t < n; t++) {
            System.identityHashCode(threads[t]);
            System.identityHashCode(threads[t].getThreadGroup());
        }
        hashClasses(loaded);
    }

    /** Named classes by name, then by loader's name: hidden classes' names hold addresses. */
    private static void hashClasses(Class<?>[] loaded) {
        Class<?>[] named = Arrays.stream(loaded).filter(c -> !c.isHidden()).toArray(Class<?>[]::new);
        Arrays.sort(named, java.util.Comparator.comparing(Class<?>::getName)
                .thenComparing(c -> c.getClassLoader() == null ? "" : String.valueOf(c.getClassLoader().getName())));
        for (Class<?> c : named) {
            System.identityHashCode(c);
        }
    }

    @SuppressWarnings("deprecation")
    private static long id(Thread t) {
        return t.getId();
    }
}
