package dev.reprise.agent.ops.environment;

import dev.reprise.agent.ops.CallSite;
import dev.reprise.agent.ops.classes.HiddenClassOps;
import dev.reprise.agent.runtime.identity.IdentityHashes;

/**
 * Identity hash codes, at every call that can reach {@code Object.hashCode} or
 * {@code System.identityHashCode}: in the program, and in the JDK classes whose iteration
 * order or output follows them ({@code Object.toString}, and every class of {@code java.util}:
 * hash maps and sets, and the collections, entries and {@code Optional}s whose own hash combines
 * their elements', which may be keys of a map). Also where the JDK's own keys hash classes or
 * enum constants: dynalink's call-site descriptors and operations (a script engine's call
 * sites), annotations (a dependency injector's keys), generic types' variables, and the class
 * loaders' values ({@code Proxy}'s cache key, which its sub-keys hash); a method
 * type's hash is computed from its classes' ({@code IdentityHashes.hashCode}).
 * Hidden classes get theirs as they are defined ({@link HiddenClassOps}).
 */
public final class HashOps {
    private HashOps() {
    }

    @CallSite(kind = CallSite.Kind.VIRTUAL, owner = "*", method = "hashCode", desc = "()I",
            alsoIn = {"java/lang/Object", "java/util/", "jdk/dynalink/", "jdk/internal/loader/",
                "sun/reflect/annotation/", "sun/reflect/generics/reflectiveObjects/"})
    public static int hashCode(Object o) {
        // Strings, the keys most maps meet: their own hash, with no verdict to look up. This hook is
        // small enough to be inlined at each site, where String's hashCode then is too.
        if (o instanceof String s) {
            return s.hashCode();
        }
        return IdentityHashes.hashCode(o);
    }

    /** {@code super.hashCode()} where the superclass is Object: always the identity hash. */
    @CallSite(kind = CallSite.Kind.SPECIAL, owner = "java/lang/Object", method = "hashCode", desc = "()I")
    public static int superHashCode(Object o) {
        return IdentityHashes.identityHashCode(o);
    }

    /**
     * {@code System.identityHashCode}, also in {@code java.lang}: the JDK names an unnamed module or
     * a class loader by its hash ({@code Module.toString}, {@code ClassLoader}'s name in exception
     * messages), and keys its tables of modules' reflective exports by it, where the JVM's hash,
     * drawn when the JDK first asks, would be the one the program then prints.
     */
    @CallSite(kind = CallSite.Kind.STATIC, owner = "java/lang/System", method = "identityHashCode",
            desc = "(Ljava/lang/Object;)I", alsoIn = {"java/util/", "java/lang/"})
    public static int identityHashCode(Object o) {
        return IdentityHashes.identityHashCode(o);
    }
}
