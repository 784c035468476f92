package corpus.single;

import java.util.Comparator;
import java.util.HashSet;
import java.util.Set;
import java.util.StringJoiner;

import corpus.Expect;

/**
 * Keys a hash set by the JDK's own modules, which have no hash code of their own, and prints the
 * order it iterates in: it follows the identity hashes the JVM gave the modules as it booted,
 * before any agent ran. Those must be the same in the recording and every replay, as they are in
 * plain runs of one JDK.
 */
@Expect
public final class ModuleKeys {
    public static void main(String[] args) {
        // Added in name order: the boot layer's own set iterates in an order seeded anew by each JVM.
        Set<Module> modules = new HashSet<>();
        ModuleLayer.boot().modules().stream().sorted(Comparator.comparing(Module::getName)).forEach(modules::add);
        StringJoiner order = new StringJoiner(" ", "module set order: ", "");
        for (Module m : modules) {
            order.add(m.getName());
        }
        System.out.println(order);
    }
}
