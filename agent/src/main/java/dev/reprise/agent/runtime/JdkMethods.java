package dev.reprise.agent.runtime;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.invoke.VarHandle;

/**
 * Method handles through which hooks run the real operation. A hook's target is re-entered
 * non-virtually ({@code invokespecial} semantics), so a program's subclass that overrides the
 * method and calls {@code super} is not run twice.
 *
 * <p>The file families keep their handles in a nested holder, made when a hook first needs one:
 * making a handle spins lambda forms and hidden classes (the file families' hundred took about
 * 40 ms and 1 MB of every start-up in premain), and most programs reach few of them. A holder's
 * initializer runs between {@link Rt#suppress} and {@link Rt#unsuppress}, its first and last
 * static blocks: it may run on a program thread in the middle of the program, at different
 * moments when recording and replaying (a replay does not run most operations live), and what the
 * JDK does there (identity hashes, synchronization, class initializers) must not count as the
 * program's. A member this JDK lacks then stops the JVM ({@link #unreachable}) instead of
 * throwing into the program.
 */
public final class JdkMethods {
    private JdkMethods() {
    }

    /** The body of {@code owner.name} itself, bound to no override. */
    public static MethodHandle special(Class<?> owner, String name, MethodType type) {
        try {
            return lookup(owner).findSpecial(owner, name, type, owner);
        } catch (ReflectiveOperationException e) {
            throw unreachable(owner.getName() + "." + name + type, e);
        }
    }

    public static MethodHandle statik(Class<?> owner, String name, MethodType type) {
        try {
            return lookup(owner).findStatic(owner, name, type);
        } catch (ReflectiveOperationException e) {
            throw unreachable(owner.getName() + "." + name + type, e);
        }
    }

    /** Like {@link #special} but absent on some JDK versions: returns null there. */
    public static MethodHandle specialIfPresent(Class<?> owner, String name, MethodType type) {
        try {
            return lookup(owner).findSpecial(owner, name, type, owner);
        } catch (ReflectiveOperationException e) {
            return null;
        }
    }

    /** Like {@link #statik}, for a method or class absent on some JDK versions: returns null there. */
    public static MethodHandle statikIfPresent(String owner, String name, MethodType type) {
        try {
            Class<?> c = Class.forName(owner, false, null);
            return lookup(c).findStatic(c, name, type);
        } catch (ReflectiveOperationException e) {
            return null;
        }
    }

    /** A handle on the private field {@code owner.name}. */
    public static VarHandle field(Class<?> owner, String name, Class<?> type) {
        try {
            return lookup(owner).findVarHandle(owner, name, type);
        } catch (ReflectiveOperationException e) {
            throw unreachable(owner.getName() + "." + name, e);
        }
    }

    /**
     * Reports that a member a hook needs is missing from this JDK, and stops the JVM with the
     * agent's failure status: a recording cannot go on without the operation. Returns nothing;
     * callers throw its result so that the compiler sees the path end.
     */
    public static IllegalStateException unreachable(String member, Throwable cause) {
        Divergence.message("cannot reach " + member + " on Java " + Runtime.version() + ": " + cause);
        Runtime.getRuntime().halt(Divergence.EXIT_AGENT_FAILED);
        return new IllegalStateException("cannot reach " + member, cause);
    }

    public static Class<?> jdkClass(String name) {
        try {
            return Class.forName(name, false, null);
        } catch (ClassNotFoundException e) {
            throw unreachable("class " + name, e);
        }
    }

    private static MethodHandles.Lookup lookup(Class<?> owner) throws IllegalAccessException {
        return MethodHandles.privateLookupIn(owner, MethodHandles.lookup());
    }
}
