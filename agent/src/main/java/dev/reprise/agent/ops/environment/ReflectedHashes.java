package dev.reprise.agent.ops.environment;

import java.lang.reflect.Method;

import dev.reprise.agent.ops.Prologue;
import dev.reprise.agent.runtime.events.Rt;
import dev.reprise.agent.runtime.identity.IdentityHashes;

/**
 * {@code Object.hashCode} and {@code System.identityHashCode} called through {@code Method.invoke},
 * which no call-site hook sees ({@link HashOps}): the JVM's native method hashes the object
 * itself, from the thread's own sequence of JVM hashes, which every class loaded on the thread
 * advances, and Reprise's own work loads other classes on replay than it did recording. The
 * object gets its deterministic value just before, and the native method answers with it.
 * Nothing is logged: the call is no event.
 */
public final class ReflectedHashes {
    private ReflectedHashes() {
    }

    @Prologue(owner = "java/lang/reflect/Method", method = "invoke",
            desc = "(Ljava/lang/Object;[Ljava/lang/Object;)Ljava/lang/Object;", kind = Prologue.Kind.BEFORE)
    public static void invoke(Method m, Object target, Object[] args) {
        try {
            Class<?> c = m.getDeclaringClass();
            if (c == Object.class && target != null && m.getName().equals("hashCode")) {
                IdentityHashes.assignBeforeReflectiveHash(target, false);
            } else if (c == System.class && args != null && args.length == 1 && args[0] != null
                    && m.getName().equals("identityHashCode")) {
                IdentityHashes.assignBeforeReflectiveHash(args[0], true);
            }
        } finally {
            Rt.release();
        }
    }
}
