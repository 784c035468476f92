package dev.reprise.agent.ops;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

import dev.reprise.agent.instrument.Catalogue;
import dev.reprise.agent.instrument.Transformer;
import dev.reprise.agent.runtime.JdkMethods;
import dev.reprise.agent.runtime.Rt;
import jdk.internal.reflect.MethodAccessor;

/**
 * Calls of methods a call-site hook stands for ({@code System.nanoTime}, {@code Thread.sleep},
 * {@code Object.hashCode}) that no call site names: through a method handle the program looked
 * up (Groovy's and JRuby's dynamic calls), or through reflection (Clojure's and Rhino's calls of
 * Java methods). A handle the program's own classes look up for such a method is the hook's, and
 * a {@code Method}'s accessor calls the hook: the call is then the event the same call in the
 * program's code is, with no call site ({@code 0}). The JDK's and Reprise's own lookups get the
 * method itself.
 */
public final class ReflectedCalls {
    private static final String LOOKUP = "java/lang/invoke/MethodHandles$Lookup";
    private static final String LOOKUP_DESC = "(Ljava/lang/Class;Ljava/lang/String;Ljava/lang/invoke/MethodType;)Ljava/lang/invoke/MethodHandle;";

    private static final MethodHandle FIND_STATIC = lookupMethod("findStatic", Class.class, String.class, MethodType.class);
    private static final MethodHandle FIND_VIRTUAL = lookupMethod("findVirtual", Class.class, String.class, MethodType.class);
    private static final MethodHandle UNREFLECT = lookupMethod("unreflect", Method.class);
    private static final MethodHandle ACQUIRE = JdkMethods.special(Method.class, "acquireMethodAccessor",
            MethodType.methodType(MethodAccessor.class));
    private static final MethodHandle SET_ACCESSOR = JdkMethods.special(Method.class, "setMethodAccessor",
            MethodType.methodType(void.class, MethodAccessor.class));

    /** Set once in premain, before the session is active (volatile: read by any thread after). */
    private static volatile Catalogue catalogue;
    /** Per {@code static|owner.name desc}: the hook's handle, adapted to the method's type, or none. */
    private static final ConcurrentHashMap<String, Optional<MethodHandle>> HOOKS = new ConcurrentHashMap<>();

    private ReflectedCalls() {
    }

    public static void configure(Catalogue c) {
        catalogue = c;
    }

    private static MethodHandle lookupMethod(String name, Class<?>... params) {
        try {
            return MethodHandles.lookup().findVirtual(MethodHandles.Lookup.class, name,
                    MethodType.methodType(MethodHandle.class, params));
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("no Lookup." + name, e);
        }
    }

    @Prologue(owner = LOOKUP, method = "findStatic", desc = LOOKUP_DESC)
    public static MethodHandle findStatic(MethodHandles.Lookup lookup, Class<?> refc, String name, MethodType type)
            throws Throwable {
        return lookedUp(FIND_STATIC, true, lookup, refc, name, type);
    }

    @Prologue(owner = LOOKUP, method = "findVirtual", desc = LOOKUP_DESC)
    public static MethodHandle findVirtual(MethodHandles.Lookup lookup, Class<?> refc, String name, MethodType type)
            throws Throwable {
        return lookedUp(FIND_VIRTUAL, false, lookup, refc, name, type);
    }

    /** The JDK's lookup first, for its checks and exceptions; then the hook's handle in its place, if one stands for the method. */
    private static MethodHandle lookedUp(MethodHandle live, boolean isStatic, MethodHandles.Lookup lookup, Class<?> refc,
            String name, MethodType type) throws Throwable {
        try {
            MethodHandle found = (MethodHandle) live.invokeExact(lookup, refc, name, type);
            MethodHandle hook = byProgram(lookup) ? hook(isStatic, refc, name, type) : null;
            return hook != null ? hook : found;
        } finally {
            Rt.release();
        }
    }

    @Prologue(owner = LOOKUP, method = "unreflect", desc = "(Ljava/lang/reflect/Method;)Ljava/lang/invoke/MethodHandle;")
    public static MethodHandle unreflect(MethodHandles.Lookup lookup, Method m) throws Throwable {
        try {
            MethodHandle found = (MethodHandle) UNREFLECT.invokeExact(lookup, m);
            MethodHandle hook = byProgram(lookup) ? hook(m) : null;
            return hook != null ? hook : found;
        } finally {
            Rt.release();
        }
    }

    /**
     * {@code Method.invoke}'s first call of a method makes its accessor, which the method and its
     * copies then keep: for a hooked method, one that calls the hook.
     */
    @Prologue(owner = "java/lang/reflect/Method", method = "acquireMethodAccessor", desc = "()Ljdk/internal/reflect/MethodAccessor;")
    public static MethodAccessor acquireMethodAccessor(Method m) throws Throwable {
        try {
            MethodAccessor found = (MethodAccessor) ACQUIRE.invokeExact(m);
            MethodHandle hook = hook(m);
            if (hook == null) {
                return found;
            }
            MethodAccessor ours = new HookAccessor(hook, Modifier.isStatic(m.getModifiers()), m.getDeclaringClass(),
                    m.getParameterTypes());
            SET_ACCESSOR.invokeExact(m, ours);
            return ours;
        } finally {
            Rt.release();
        }
    }

    /** Whether the lookup is the program's (or a library's): not the JDK's, whose own lookups are its business, nor Reprise's. */
    private static boolean byProgram(MethodHandles.Lookup lookup) {
        return !Transformer.isJdkName(lookup.lookupClass().getName().replace('.', '/'));
    }

    private static MethodHandle hook(Method m) throws ReflectiveOperationException {
        return hook(Modifier.isStatic(m.getModifiers()), m.getDeclaringClass(), m.getName(),
                MethodType.methodType(m.getReturnType(), m.getParameterTypes()));
    }

    /** The hook's handle, typed as the method's handle would be, or null if no hook stands for the method. */
    private static MethodHandle hook(boolean isStatic, Class<?> refc, String name, MethodType type)
            throws ReflectiveOperationException {
        Catalogue c = catalogue;
        if (c == null || c.siteHooks(name).isEmpty()) {
            return null; // most lookups: no hook has the name
        }
        String owner = refc.getName().replace('.', '/');
        String key = (isStatic ? "static " : "") + owner + "." + name + type.toMethodDescriptorString();
        Optional<MethodHandle> known = HOOKS.get(key);
        if (known == null) {
            Catalogue.SiteHook h = c.reflectedHook(isStatic, owner, name, type.toMethodDescriptorString());
            known = Optional.ofNullable(h == null ? null : adapt(h, isStatic, refc, type));
            HOOKS.putIfAbsent(key, known);
        }
        return known.orElse(null);
    }

    private static MethodHandle adapt(Catalogue.SiteHook h, boolean isStatic, Class<?> refc, MethodType type)
            throws ReflectiveOperationException {
        Class<?> hookClass = Class.forName(h.hookOwner().replace('/', '.'), false, null);
        MethodHandle hook = MethodHandles.lookup().findStatic(hookClass, h.hookName(),
                MethodType.fromMethodDescriptorString(h.hookDesc(), null));
        MethodType wanted = isStatic ? type : type.insertParameterTypes(0, refc);
        if (hook.type().parameterCount() == wanted.parameterCount() + 1) {
            hook = MethodHandles.insertArguments(hook, wanted.parameterCount(), 0); // the site: none
        }
        return hook.asType(wanted);
    }

    /**
     * A hooked method's accessor: {@code Method.invoke}'s checks and wrapping around the hook. The
     * arguments are checked first, so that an exception from the call itself is the method's.
     */
    private static final class HookAccessor implements MethodAccessor {
        private final MethodHandle spread;
        private final boolean isStatic;
        private final Class<?> declaring;
        private final Class<?>[] params;

        HookAccessor(MethodHandle hook, boolean isStatic, Class<?> declaring, Class<?>[] params) {
            int arity = hook.type().parameterCount();
            this.spread = hook.asType(hook.type().generic()).asSpreader(Object[].class, arity);
            this.isStatic = isStatic;
            this.declaring = declaring;
            this.params = params;
        }

        @Override
        public Object invoke(Object obj, Object[] args) throws IllegalArgumentException, InvocationTargetException {
            Object[] given = args == null ? new Object[0] : args;
            if (given.length != params.length) {
                throw new IllegalArgumentException("wrong number of arguments: " + given.length + " expected: "
                        + params.length);
            }
            Object[] all = given.clone();
            for (int i = 0; i < params.length; i++) {
                all[i] = converted(params[i], given[i]);
            }
            if (!isStatic) {
                if (obj == null) {
                    throw new NullPointerException();
                }
                if (!declaring.isInstance(obj)) {
                    throw new IllegalArgumentException("object is not an instance of declaring class");
                }
                Object[] withReceiver = new Object[all.length + 1];
                withReceiver[0] = obj;
                System.arraycopy(all, 0, withReceiver, 1, all.length);
                all = withReceiver;
            }
            try {
                return spread.invokeExact(all);
            } catch (Throwable t) {
                throw new InvocationTargetException(t);
            }
        }

        /**
         * {@code arg} as a {@code type} takes it, as {@code Method.invoke} converts: unboxed and
         * widened for a primitive ({@code Integer} to {@code long}); else an IllegalArgumentException.
         */
        private static Object converted(Class<?> type, Object arg) {
            if (!type.isPrimitive()) {
                if (arg == null || type.isInstance(arg)) {
                    return arg;
                }
            } else if (arg instanceof Character ch && rank(type) >= rank(int.class)) {
                return widened(type, (int) ch);
            } else if (arg instanceof Boolean && type == boolean.class || arg instanceof Character && type == char.class) {
                return arg;
            } else if (arg instanceof Number n && !(arg instanceof Character) && rank(arg.getClass()) > 0
                    && rank(arg.getClass()) <= rank(type)) {
                return widened(type, n);
            }
            throw new IllegalArgumentException("argument type mismatch");
        }

        /** Order of widening among the numeric types and their wrappers; 0 for others. */
        private static int rank(Class<?> c) {
            if (c == byte.class || c == Byte.class) {
                return 1;
            } else if (c == short.class || c == Short.class) {
                return 2;
            } else if (c == int.class || c == Integer.class) {
                return 3;
            } else if (c == long.class || c == Long.class) {
                return 4;
            } else if (c == float.class || c == Float.class) {
                return 5;
            } else if (c == double.class || c == Double.class) {
                return 6;
            }
            return 0;
        }

        private static Object widened(Class<?> type, Number n) {
            if (type == byte.class) {
                return n.byteValue();
            } else if (type == short.class) {
                return n.shortValue();
            } else if (type == int.class) {
                return n.intValue();
            } else if (type == long.class) {
                return n.longValue();
            } else if (type == float.class) {
                return n.floatValue();
            }
            return n.doubleValue();
        }
    }
}
