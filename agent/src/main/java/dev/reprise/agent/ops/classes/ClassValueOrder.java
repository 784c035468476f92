package dev.reprise.agent.ops.classes;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

import dev.reprise.agent.ops.CallSite;
import dev.reprise.agent.runtime.jdk.JdkMethods;
import dev.reprise.agent.runtime.ordering.SyncActions;

/**
 * The program's class values ({@code ClassValue}, which dynamic languages' runtimes keep a class's
 * metadata in): which threads compute a class's value and whose value every thread gets. A thread
 * that finds no value runs {@code computeValue}, the program's code, and the JDK keeps the value
 * that lands first in its per-class map, under the map's lock; but whether a thread finds one
 * first reads an unlocked cache that any class value of the class may fill or overwrite. Both are
 * races a replay would decide otherwise.
 *
 * <p>For a class value whose class is not the boot loader's, the cache always misses here (the two probes
 * of {@code ClassValue.get}), so every lookup takes the map; and each call of the map's access
 * methods (JDK 17: start, finish, remove; from JDK 25: read, associate, remove) is an ordered
 * write on the class value ({@link SyncActions#enterDespiteQuiet}: the JDK's calls to the map are
 * quiet). A replay then makes the same calls in the recorded order, and each finds the map as its
 * recording did: a value, or none, so it computes, and whose computation was first. What a lookup
 * costs: the map's lock, and a synchronization action relaxed while one thread alone uses the
 * class value. java.base's class values, and Reprise's own, keep the cache: Reprise's work reaches
 * them differently in a recording and its replays.
 */
public final class ClassValueOrder {
    private static final String CLASS_VALUE = "java/lang/ClassValue";
    private static final Class<?> MAP = JdkMethods.jdkClass("java.lang.ClassValue$ClassValueMap");
    private static final Class<?> ENTRY = JdkMethods.jdkClass("java.lang.ClassValue$Entry");
    private static final MethodHandle MATCH = JdkMethods.virtual(ClassValue.class, "match",
            MethodType.methodType(boolean.class, ENTRY)).asType(MethodType.methodType(boolean.class, ClassValue.class, Object.class));
    private static final MethodHandle PROBE_BACKUP = JdkMethods.statik(MAP, "probeBackupLocations",
                    MethodType.methodType(ENTRY, ENTRY.arrayType(), ClassValue.class))
            .asType(MethodType.methodType(Object.class, Object[].class, ClassValue.class));
    // JDK 17 to 24.
    private static final MethodHandle START = access("startEntry", ENTRY);
    private static final MethodHandle FINISH = access("finishEntry", ENTRY, ENTRY);
    private static final MethodHandle REMOVE_ENTRY = access("removeEntry", void.class);
    // JDK 25 on.
    private static final MethodHandle READ = access("readAccess", Object.class);
    private static final MethodHandle ASSOCIATE = access("associateAccess", Object.class,
            removalToken(), Object.class);
    private static final MethodHandle REMOVE_ACCESS = access("removeAccess", void.class);

    static {
        // Links each hook's invokeExact call sites now, in premain, on a class value of Reprise's
        // own. Linking one later runs java.lang.invoke code that asks class values, which would
        // come back to the site before it is linked, endlessly.
        try {
            ClassValue<Object> own = new ClassValue<>() {
                @Override
                protected Object computeValue(Class<?> type) {
                    return type;
                }
            };
            match(own, null);
            probeBackupLocations((Object[]) java.lang.reflect.Array.newInstance(ENTRY, 1), own);
            Object map = (Object) JdkMethods.statik(ClassValue.class, "getMap", MethodType.methodType(MAP, Class.class))
                    .asType(MethodType.methodType(Object.class, Class.class)).invokeExact((Class<?>) ClassValueOrder.class);
            if (START != null) {
                finishEntry(map, own, startEntry(map, own, 0), 0);
                removeEntry(map, own, 0);
            }
            if (READ != null) {
                associateAccess(map, own, readAccess(map, own, 0), ClassValueOrder.class, 0);
                removeAccess(map, own, 0);
            }
        } catch (Throwable e) {
            throw new IllegalStateException("cannot link the hooks of ClassValue", e);
        }
    }

    private ClassValueOrder() {
    }

    /**
     * The map's method {@code name} taking the class value, then {@code more}, as one shape for
     * {@link #ordered}: (map, class value, a, b) to a result, the arguments it lacks dropped, a
     * {@code void}'s result null. Null where this JDK has no such method.
     */
    private static MethodHandle access(String name, Class<?> returns, Class<?>... more) {
        if (more.length > 0 && more[0] == null) {
            return null;
        }
        Class<?>[] params = new Class<?>[more.length + 1];
        params[0] = ClassValue.class;
        System.arraycopy(more, 0, params, 1, more.length);
        MethodHandle h = JdkMethods.virtualIfPresent(MAP, name, MethodType.methodType(returns, params));
        if (h == null) {
            return null;
        }
        MethodHandle generic = h.asType(h.type().generic().changeParameterType(1, ClassValue.class)
                .changeReturnType(Object.class));
        Class<?>[] unused = new Class<?>[2 - more.length];
        java.util.Arrays.fill(unused, Object.class);
        return MethodHandles.dropArguments(generic, 2 + more.length, unused);
    }

    private static Class<?> removalToken() {
        try {
            return Class.forName("java.lang.ClassValue$RemovalToken", false, null);
        } catch (ClassNotFoundException e) {
            return null;
        }
    }

    /**
     * Whether {@code cv} is the program's: its class is not the boot loader's (java.base's, and
     * Reprise's own). The platform loader's modules count as the program's libraries: dynalink's
     * class values, which Nashorn's linking asks from every thread, are reached by the program alone.
     */
    private static boolean programs(ClassValue<?> cv) {
        return cv.getClass().getClassLoader() != null;
    }

    @CallSite(kind = CallSite.Kind.VIRTUAL, owner = CLASS_VALUE, method = "match",
            desc = "(Ljava/lang/ClassValue$Entry;)Z", alsoIn = CLASS_VALUE)
    public static boolean match(ClassValue<?> cv, Object entry) throws Throwable {
        return !programs(cv) && (boolean) MATCH.invokeExact(cv, entry);
    }

    @CallSite(kind = CallSite.Kind.STATIC, owner = "java/lang/ClassValue$ClassValueMap", method = "probeBackupLocations",
            desc = "([Ljava/lang/ClassValue$Entry;Ljava/lang/ClassValue;)Ljava/lang/ClassValue$Entry;", alsoIn = CLASS_VALUE)
    public static Object probeBackupLocations(Object[] cache, ClassValue<?> cv) throws Throwable {
        return programs(cv) ? null : (Object) PROBE_BACKUP.invokeExact(cache, cv);
    }

    @CallSite(kind = CallSite.Kind.VIRTUAL, owner = "java/lang/ClassValue$ClassValueMap", method = "startEntry",
            desc = "(Ljava/lang/ClassValue;)Ljava/lang/ClassValue$Entry;", alsoIn = CLASS_VALUE)
    public static Object startEntry(Object map, ClassValue<?> cv, int site) throws Throwable {
        return ordered(START, map, cv, null, null, site);
    }

    @CallSite(kind = CallSite.Kind.VIRTUAL, owner = "java/lang/ClassValue$ClassValueMap", method = "finishEntry",
            desc = "(Ljava/lang/ClassValue;Ljava/lang/ClassValue$Entry;)Ljava/lang/ClassValue$Entry;", alsoIn = CLASS_VALUE)
    public static Object finishEntry(Object map, ClassValue<?> cv, Object entry, int site) throws Throwable {
        return ordered(FINISH, map, cv, entry, null, site);
    }

    @CallSite(kind = CallSite.Kind.VIRTUAL, owner = "java/lang/ClassValue$ClassValueMap", method = "removeEntry",
            desc = "(Ljava/lang/ClassValue;)V", alsoIn = CLASS_VALUE)
    public static void removeEntry(Object map, ClassValue<?> cv, int site) throws Throwable {
        ordered(REMOVE_ENTRY, map, cv, null, null, site);
    }

    @CallSite(kind = CallSite.Kind.VIRTUAL, owner = "java/lang/ClassValue$ClassValueMap", method = "readAccess",
            desc = "(Ljava/lang/ClassValue;)Ljava/lang/Object;", alsoIn = CLASS_VALUE)
    public static Object readAccess(Object map, ClassValue<?> cv, int site) throws Throwable {
        return ordered(READ, map, cv, null, null, site);
    }

    @CallSite(kind = CallSite.Kind.VIRTUAL, owner = "java/lang/ClassValue$ClassValueMap", method = "associateAccess",
            desc = "(Ljava/lang/ClassValue;Ljava/lang/ClassValue$RemovalToken;Ljava/lang/Object;)Ljava/lang/Object;",
            alsoIn = CLASS_VALUE)
    public static Object associateAccess(Object map, ClassValue<?> cv, Object token, Object value, int site) throws Throwable {
        return ordered(ASSOCIATE, map, cv, token, value, site);
    }

    @CallSite(kind = CallSite.Kind.VIRTUAL, owner = "java/lang/ClassValue$ClassValueMap", method = "removeAccess",
            desc = "(Ljava/lang/ClassValue;)V", alsoIn = CLASS_VALUE)
    public static void removeAccess(Object map, ClassValue<?> cv, int site) throws Throwable {
        ordered(REMOVE_ACCESS, map, cv, null, null, site);
    }

    /**
     * {@code access} ({@link #access}'s shape) of the map and {@code cv}, an ordered write on
     * {@code cv} if it is the program's. One call site of the handles, linked once ({@code static}).
     */
    private static Object ordered(MethodHandle access, Object map, ClassValue<?> cv, Object a, Object b, int site)
            throws Throwable {
        if (!programs(cv)) {
            return (Object) access.invokeExact(map, cv, a, b);
        }
        SyncActions.enterDespiteQuiet(cv, site);
        try {
            return (Object) access.invokeExact(map, cv, a, b);
        } finally {
            SyncActions.exit();
        }
    }
}
