package dev.reprise.agent.runtime.jdk;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.invoke.VarHandle;

/**
 * Method handles through which hooks run the real operation. A hook's target is re-entered
 * non-virtually ({@code invokespecial} semantics), so a program's subclass that overrides the
 * method and calls {@code super} is not run twice. Lookup failures are start-up errors.
 */
public final class JdkMethods {
    private JdkMethods() {
    }

    /** The body of {@code owner.name} itself, bound to no override. */
    public static MethodHandle special(Class<?> owner, String name, MethodType type) {
        try {
            return lookup(owner).findSpecial(owner, name, type, owner);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot reach " + owner.getName() + "." + name + type, e);
        }
    }

    public static MethodHandle statik(Class<?> owner, String name, MethodType type) {
        try {
            return lookup(owner).findStatic(owner, name, type);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot reach " + owner.getName() + "." + name + type, e);
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

    /** A virtual (interface or overridable) method of a JDK type. */
    public static MethodHandle virtual(Class<?> owner, String name, MethodType type) {
        MethodHandle h = virtualIfPresent(owner, name, type);
        if (h == null) {
            throw new IllegalStateException("cannot reach " + owner.getName() + "." + name + type);
        }
        return h;
    }

    /** Like {@link #virtual} but absent on some JDK versions: returns null there. */
    public static MethodHandle virtualIfPresent(Class<?> owner, String name, MethodType type) {
        try {
            return lookup(owner).findVirtual(owner, name, type);
        } catch (ReflectiveOperationException e) {
            return null;
        }
    }

    /** A handle on the private field {@code owner.name}. */
    public static VarHandle field(Class<?> owner, String name, Class<?> type) {
        try {
            return lookup(owner).findVarHandle(owner, name, type);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot reach " + owner.getName() + "." + name, e);
        }
    }

    /** A handle on the private static field {@code owner.name}. */
    public static VarHandle staticField(Class<?> owner, String name, Class<?> type) {
        VarHandle h = staticFieldIfPresent(owner, name, type);
        if (h == null) {
            throw new IllegalStateException("cannot reach " + owner.getName() + "." + name);
        }
        return h;
    }

    /** Like {@link #staticField}, for a field absent on some JDK versions: returns null there. */
    public static VarHandle staticFieldIfPresent(Class<?> owner, String name, Class<?> type) {
        try {
            return lookup(owner).findStaticVarHandle(owner, name, type);
        } catch (ReflectiveOperationException e) {
            return null;
        }
    }

    public static Class<?> jdkClass(String name) {
        try {
            return Class.forName(name, false, null);
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException("JDK class " + name + " not found", e);
        }
    }

    /** Like {@link #jdkClass}, for a class absent on some JDK versions: returns null there. */
    public static Class<?> jdkClassIfPresent(String name) {
        try {
            return Class.forName(name, false, null);
        } catch (ClassNotFoundException e) {
            return null;
        }
    }

    private static MethodHandles.Lookup lookup(Class<?> owner) throws IllegalAccessException {
        return MethodHandles.privateLookupIn(owner, MethodHandles.lookup());
    }
}
