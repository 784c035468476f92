package corpus.single;

import java.util.HashSet;
import java.util.Set;
import java.util.StringJoiner;
import java.util.TreeSet;

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
        Set<Module> modules = new HashSet<>();
        for (String name : new TreeSet<>(ModuleLayer.boot().modules().stream().map(Module::getName).toList())) {
            modules.add(ModuleLayer.boot().findModule(name).orElseThrow());
        }
        StringJoiner order = new StringJoiner(" ", "module set order: ", "");
        for (Module m : modules) {
            order.add(m.getName());
        }
        System.out.println(order);
    }
}
