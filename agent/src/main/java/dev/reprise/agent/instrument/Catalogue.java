package dev.reprise.agent.instrument;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import org.objectweb.asm.Type;

import dev.reprise.agent.ops.CallSite;
import dev.reprise.agent.ops.Constructed;
import dev.reprise.agent.ops.Prologue;

/**
 * Every intercepted operation, read from the {@link Prologue}, {@link CallSite} and {@link Constructed} annotations of
 * the hook classes. The instrumentation passes consult it; nothing else lists operations.
 */
public final class Catalogue {
    /** A prologue to add: target method, and the static hook it calls. */
    public record PrologueHook(String owner, String method, String desc, boolean optional, boolean anyDepth,
                               String hookOwner, String hookName, String hookDesc) {
    }

    /** A call to rewrite into a call to a static hook. */
    public record SiteHook(CallSite.Kind kind, String owner, String method, String desc, boolean programOnly,
                           String hookOwner, String hookName, String hookDesc) {
    }

    /** A call to add to a JDK constructor, after its superclass constructor ({@link Constructed}). */
    public record ConstructedHook(String owner, String desc, String hookOwner, String hookName, String hookDesc) {
    }

    private final Map<String, List<PrologueHook>> prologues = new HashMap<>();
    private final Map<String, List<ConstructedHook>> constructed = new HashMap<>();
    private final Map<String, List<SiteHook>> sitesByMethod = new HashMap<>();
    private final Set<String> siteClasses = new TreeSet<>();
    private final Set<String> monitorClasses;

    /**
     * @param hookClasses    the families of hooks
     * @param monitorClasses JDK classes whose monitor acquisitions are ordered events
     */
    public Catalogue(List<Class<?>> hookClasses, Set<String> monitorClasses) {
        this.monitorClasses = Set.copyOf(monitorClasses);
        for (Class<?> c : hookClasses) {
            for (Method m : c.getDeclaredMethods()) {
                Prologue p = m.getAnnotation(Prologue.class);
                CallSite s = m.getAnnotation(CallSite.class);
                Constructed made = m.getAnnotation(Constructed.class);
                if (p == null && s == null && made == null) {
                    continue;
                }
                if (!Modifier.isStatic(m.getModifiers()) || !Modifier.isPublic(m.getModifiers())) {
                    throw new IllegalStateException("hook " + c.getName() + "." + m.getName() + " must be public static");
                }
                String hookOwner = Type.getInternalName(c);
                String hookDesc = Type.getMethodDescriptor(m);
                if (p != null) {
                    List<PrologueHook> ofOwner = prologues.computeIfAbsent(p.owner(), k -> new ArrayList<>());
                    for (PrologueHook other : ofOwner) {
                        if (other.method().equals(p.method()) && other.desc().equals(p.desc())) {
                            throw new IllegalStateException(p.owner() + "." + p.method() + p.desc() + " is hooked twice: by "
                                    + other.hookOwner() + "." + other.hookName() + " and " + hookOwner + "." + m.getName());
                        }
                    }
                    ofOwner.add(new PrologueHook(p.owner(), p.method(), p.desc(), p.optional(), p.anyDepth(), hookOwner, m.getName(), hookDesc));
                }
                if (made != null) {
                    Type hook = Type.getMethodType(hookDesc);
                    if (hook.getReturnType() != Type.VOID_TYPE
                            || hook.getArgumentTypes().length != Type.getArgumentTypes(made.desc()).length + 1) {
                        throw new IllegalStateException("hook " + m.getName() + hookDesc + " does not fit "
                                + made.owner() + ".<init>" + made.desc());
                    }
                    constructed.computeIfAbsent(made.owner(), x -> new ArrayList<>())
                            .add(new ConstructedHook(made.owner(), made.desc(), hookOwner, m.getName(), hookDesc));
                }
                if (s != null) {
                    sitesByMethod.computeIfAbsent(s.method(), k -> new ArrayList<>())
                            .add(new SiteHook(s.kind(), s.owner(), s.method(), s.desc(), s.programOnly(), hookOwner, m.getName(), hookDesc));
                    Collections.addAll(siteClasses, s.alsoIn());
                }
            }
        }
    }

    public List<PrologueHook> prologuesOf(String internalName) {
        return prologues.getOrDefault(internalName, List.of());
    }

    public List<ConstructedHook> constructedHooksOf(String internalName) {
        return constructed.getOrDefault(internalName, List.of());
    }

    /** Site hooks for calls to methods named {@code name}: most calls are rejected by this lookup alone. */
    public List<SiteHook> siteHooks(String name) {
        return sitesByMethod.getOrDefault(name, List.of());
    }

    /**
     * JDK classes whose synchronization actions (volatile and atomic accesses) are ordered, as in
     * application classes: those of {@code java.util.concurrent} and of parallel streams.
     */
    public static boolean ordersSyncActionsIn(String internalName) {
        return internalName.startsWith("java/util/concurrent/") || internalName.startsWith("java/util/stream/");
    }

    /** JDK classes whose calls are rewritten: those named by hooks, and those whose synchronization is ordered. */
    public boolean rewritesSitesIn(String internalName) {
        return siteClasses.contains(internalName) || ordersSyncActionsIn(internalName);
    }

    public boolean ordersMonitorsIn(String internalName) {
        return monitorClasses.contains(internalName);
    }

    /** Whether the catalogue changes a JDK class: retransformed at start-up if already loaded. */
    public boolean changesJdkClass(String internalName) {
        return siteClasses.contains(internalName) || prologues.containsKey(internalName)
                || constructed.containsKey(internalName) || monitorClasses.contains(internalName) || ordersSyncActionsIn(internalName)
                || dev.reprise.agent.ops.JdkInternals.hasUnloggedMethods(internalName);
    }
}
