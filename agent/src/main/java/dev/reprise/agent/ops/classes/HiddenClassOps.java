package dev.reprise.agent.ops.classes;

import java.lang.invoke.VarHandle;
import java.security.ProtectionDomain;

import dev.reprise.agent.instrument.Transformer;
import dev.reprise.agent.ops.CallSite;
import dev.reprise.agent.runtime.events.Ev;
import dev.reprise.agent.runtime.events.ReplayEv;
import dev.reprise.agent.runtime.events.Rt;
import dev.reprise.agent.runtime.events.ThreadCtx;
import dev.reprise.agent.runtime.identity.IdentityHashes;
import dev.reprise.agent.runtime.jdk.HiddenClassNames;
import dev.reprise.agent.runtime.jdk.JdkMethods;
import jdk.internal.access.JavaLangAccess;

/**
 * The JDK's one call that defines a class through a {@code Lookup}: every lambda's class and
 * every hidden class a library spins. The JVM gives a hidden class to no transformer, so its bytes
 * are instrumented here ({@link Transformer#instrumentHidden}); and a hidden class gets its identity
 * hash as it is born ({@link IdentityHashes#defined}).
 *
 * <p>A hidden class's name is the JVM's: its binary name, then the address of the JVM's class, and
 * on JDK 17 a lambda's class takes a count of every lambda the JVM spun before. Reprise's own
 * work spins and loads other things on replay, so both differ there, and the program sees the
 * name: it prints a lambda ({@code Object.toString}), and a {@code Method} of a hidden class
 * hashes by its class's name (Spring's caches keyed by the methods of lambda beans filled other
 * bins on replay). A hidden class the program's code defines is an event that logs the name the
 * JVM gave it; replay gives the class the recorded name, in the field {@code Class.getName}
 * answers from, before the class is returned to the program. Defined inside an event or the
 * JDK's own work, where a replay may define it at another moment or not at all, a class keeps
 * the JVM's name, and so do the JDK's own hidden classes.
 */
public final class HiddenClassOps {
    /** {@code MethodHandleNatives.Constants.HIDDEN_CLASS}: the class is hidden. */
    private static final int HIDDEN = 0x2;
    /** Where {@code Class.getName()} caches the name the JVM gives (it asks the JVM only while null). */
    private static final VarHandle CLASS_NAME = JdkMethods.field(Class.class, "name", String.class);
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
        boolean hidden = (flags & HIDDEN) != 0;
        byte[] defined = hidden && t != null ? t.instrumentHidden(loader, name, bytes) : bytes;
        Class<?> c = access.defineClass(loader, lookup, name, defined, domain, initialize, flags, classData);
        if (hidden && name != null && Rt.active) {
            long digest = HiddenClassNames.contentDigest(bytes, name);
            if (!Transformer.isJdkName(name.replace('.', '/'))) {
                name(c, (int) (digest ^ digest >>> 32));
            }
            IdentityHashes.defined(c, digest, bytes);
        }
        return c;
    }

    /**
     * Recording: logs the JVM's name of the program's hidden class {@code c}. Replay: gives it the
     * name its recording logged, if the stream's next event is that of a class of the same content
     * ({@code digest}); a replay that defines a class its recording did not log keeps the JVM's name.
     * A lambda's class is defined while the JDK links the program's call site, which runs
     * suppressed ({@code ops/JdkInternals}): the event is written there, at the depth it finds,
     * unless the thread is inside an event of its own or the JDK's quiet work.
     */
    private static void name(Class<?> c, int digest) {
        ThreadCtx ctx = Rt.current();
        if (ctx == ThreadCtx.UNRECORDED || ctx.jdkInit || ctx.quiet != 0 || ctx.ev.opened()) {
            return;
        }
        int depth = ctx.depth;
        ctx.depth = 1; // the event's claim; a look at the stream may read it, Reprise's work
        try {
            if (ctx.ev instanceof ReplayEv r && !r.nextIs(Ev.HIDDEN_CLASS_NAME, digest)) {
                return;
            }
            Ev ev = Ev.begin(ctx, Ev.HIDDEN_CLASS_NAME, 0, digest);
            try {
                // Replay: the JVM's name is not asked for, only replaced.
                String recorded = ev.s(ev.recording() ? c.getName() : null);
                if (!ev.recording()) {
                    CLASS_NAME.setVolatile(c, recorded);
                }
            } finally {
                ev.end();
            }
        } finally {
            ctx.depth = depth;
        }
    }
}
