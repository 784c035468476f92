package dev.reprise.agent.ops.classes;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

import dev.reprise.agent.instrument.Catalogue;
import dev.reprise.agent.instrument.Transformer;
import dev.reprise.agent.ops.Prologue;

/**
 * Calls of methods a call-site hook stands for ({@code System.nanoTime}, {@code Thread.sleep},
 * {@code Object.hashCode}) that no call site names, through a method handle the program looked
 * up (Groovy's and JRuby's dynamic calls): a handle the program's own classes look up for such a
 * method is the hook's, and the call is then the event the same call in the program's code is,
 * with no call site ({@code 0}). The JDK's and Reprise's own lookups get the method itself.
 * {@code Method.invoke} is not covered (but for identity hashes, {@code ReflectedHashes}): an
 * accessor that called the hook made reactor's chaos replays diverge, for a reason not found yet.
 */
public final class ReflectedCalls {
    private static final String LOOKUP = "java/lang/invoke/MethodHandles$Lookup";
    private static final String LOOKUP_DESC = "(Ljava/lang/Class;Ljava/lang/String;Ljava/lang/invoke/MethodType;)Ljava/lang/invoke/MethodHandle;";

    private static final MethodHandle FIND_STATIC = lookupMethod("findStatic", Class.class, String.class, MethodType.class);
    private static final MethodHandle FIND_VIRTUAL = lookupMethod("findVirtual", Class.class, String.class, MethodType.class);
    private static final MethodHandle UNREFLECT = lookupMethod("unreflect", Method.class);

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
        MethodHandle found = (MethodHandle) live.invokeExact(lookup, refc, name, type);
        MethodHandle hook = byProgram(lookup) ? hook(isStatic, refc, name, type) : null;
        return hook != null ? hook : found;
    }

    @Prologue(owner = LOOKUP, method = "unreflect", desc = "(Ljava/lang/reflect/Method;)Ljava/lang/invoke/MethodHandle;")
    public static MethodHandle unreflect(MethodHandles.Lookup lookup, Method m) throws Throwable {
        MethodHandle found = (MethodHandle) UNREFLECT.invokeExact(lookup, m);
        MethodHandle hook = byProgram(lookup) ? hook(m) : null;
        return hook != null ? hook : found;
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
        String desc = type.toMethodDescriptorString();
        String key = (isStatic ? "static " : "") + owner + "." + name + desc;
        Optional<MethodHandle> known = HOOKS.get(key);
        if (known == null) {
            Catalogue.SiteHook h = c.reflectedHook(isStatic, owner, name, desc);
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
}
