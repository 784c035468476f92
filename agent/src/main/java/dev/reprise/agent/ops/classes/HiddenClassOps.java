package dev.reprise.agent.ops.classes;

import java.security.ProtectionDomain;

import dev.reprise.agent.instrument.Transformer;
import dev.reprise.agent.ops.CallSite;
import dev.reprise.agent.runtime.identity.IdentityHashes;
import jdk.internal.access.JavaLangAccess;

/**
 * The JDK's one call that defines a class through a {@code Lookup}: every lambda's class and
 * every hidden class a library spins. The JVM gives a hidden class to no transformer, so its bytes
 * are instrumented here ({@link Transformer#instrumentHidden}); and a hidden class gets its identity
 * hash as it is born ({@link IdentityHashes#defined}).
 */
public final class HiddenClassOps {
    /** {@code MethodHandleNatives.Constants.HIDDEN_CLASS}: the class is hidden. */
    private static final int HIDDEN = 0x2;
    /**
     * Set once in premain, before the session is active and any program class defines one (volatile:
     * read by any thread after).
     */
    private static volatile Transformer transformer;

    private HiddenClassOps() {
    }

    public static void configure(Transformer t) {
        transformer = t;
    }

    @CallSite(kind = CallSite.Kind.VIRTUAL, owner = "jdk/internal/access/JavaLangAccess", method = "defineClass",
            desc = "(Ljava/lang/ClassLoader;Ljava/lang/Class;Ljava/lang/String;[BLjava/security/ProtectionDomain;ZILjava/lang/Object;)Ljava/lang/Class;",
            alsoIn = "java/lang/invoke/MethodHandles$Lookup$ClassDefiner")
    public static Class<?> defineClass(JavaLangAccess access, ClassLoader loader, Class<?> lookup, String name, byte[] bytes,
            ProtectionDomain domain, boolean initialize, int flags, Object classData) {
        Transformer t = transformer;
        byte[] defined = (flags & HIDDEN) != 0 && t != null ? t.instrumentHidden(loader, name, bytes) : bytes;
        Class<?> c = access.defineClass(loader, lookup, name, defined, domain, initialize, flags, classData);
        IdentityHashes.defined(c, name, bytes);
        return c;
    }
}
