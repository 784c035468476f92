package dev.reprise.agent.runtime;

import java.util.Arrays;
import java.util.Set;

/**
 * Has the JVM hash every module before Reprise does any work of its own. A module keeps the
 * JVM's hash (the JDK's tables of reads and exports were keyed by it while the JVM started), and
 * the JVM draws each new hash from a per-thread sequence: Reprise's start-up, which differs
 * between recording and replay, hashed the class path's unnamed module at another point of that
 * sequence, and the program printed another hash on replay ({@code Module.toString}, the messages
 * of access errors). Up to the agent's start the JVM's work is the same in both.
 */
public final class ModuleHashes {
    private ModuleHashes() {
    }

    /** In name order, not the boot layer's set order, which is seeded anew by each JVM. */
    public static void fix(Module agentModule) {
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
    }
}
