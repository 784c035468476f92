package dev.reprise.agent.ops.environment;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodType;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

import dev.reprise.agent.ops.CallSite;
import dev.reprise.agent.ops.Prologue;
import dev.reprise.agent.runtime.events.Digest;
import dev.reprise.agent.runtime.events.Ev;
import dev.reprise.agent.runtime.events.Op;
import dev.reprise.agent.runtime.events.Rt;
import dev.reprise.agent.runtime.jdk.JdkMethods;

/**
 * The process's environment: variables, processor count, memory figures, PID. Only
 * the variables the program reads are recorded, those {@link RedactedEnv} names as a placeholder.
 */
public final class EnvOps {
    private static final Op GETENV = Op.named("env.get");
    private static final Op GETENV_ALL = Op.named("env.all");
    private static final Op PROCESSORS = Op.named("runtime.processors");
    private static final Op MEMORY = Op.named("runtime.memory");
    private static final Op PID = Op.named("process.pid");

    private static final MethodHandle GETENV_LIVE =
            JdkMethods.statik(System.class, "getenv", MethodType.methodType(String.class, String.class));
    private static final MethodHandle GETENV_ALL_LIVE =
            JdkMethods.statik(System.class, "getenv", MethodType.methodType(Map.class));
    private static final Class<?> PROCESS_HANDLE = JdkMethods.jdkClass("java.lang.ProcessHandleImpl");
    private static final MethodHandle PID_LIVE = JdkMethods.special(PROCESS_HANDLE, "pid", MethodType.methodType(long.class))
            .asType(MethodType.methodType(long.class, Object.class));

    private EnvOps() {
    }

    @Prologue(owner = "java/lang/System", method = "getenv", desc = "(Ljava/lang/String;)Ljava/lang/String;")
    public static String getenv(String name) throws Throwable {
        Ev ev = Ev.begin(GETENV, 0, Digest.of(name));
        if (!ev.live()) {
            return ev.s(null);
        }
        String live = (String) GETENV_LIVE.invokeExact(name);
        ev.s(RedactedEnv.logged(name, live));
        return live;
    }

    @Prologue(owner = "java/lang/System", method = "getenv", desc = "()Ljava/util/Map;")
    public static Map<String, String> getenvAll() throws Throwable {
        Ev ev = Ev.begin(GETENV_ALL, 0, 0);
        @SuppressWarnings("unchecked")
        Map<String, String> live = ev.live() ? (Map<String, String>) GETENV_ALL_LIVE.invokeExact() : Map.of();
        int n = ev.i(live.size());
        if (ev.live()) {
            for (Map.Entry<String, String> e : live.entrySet()) {
                ev.s(e.getKey());
                ev.s(RedactedEnv.logged(e.getKey(), e.getValue()));
            }
            return live;
        }
        Map<String, String> replayed = new LinkedHashMap<>();
        for (int i = 0; i < n; i++) {
            replayed.put(ev.s(null), ev.s(null));
        }
        return Collections.unmodifiableMap(replayed);
    }

    @CallSite(kind = CallSite.Kind.VIRTUAL, owner = "java/lang/Runtime", method = "availableProcessors", desc = "()I")
    public static int availableProcessors(Runtime r, int site) {
        if (!Rt.claim()) {
            return r.availableProcessors();
        }
        Ev ev = Ev.begin(PROCESSORS, site, 0);
        try {
            return ev.i(ev.live() ? r.availableProcessors() : 0);
        } finally {
            ev.end();
        }
    }

    @CallSite(kind = CallSite.Kind.VIRTUAL, owner = "java/lang/Runtime", method = "freeMemory", desc = "()J")
    public static long freeMemory(Runtime r, int site) {
        return memory(r, site, 0);
    }

    @CallSite(kind = CallSite.Kind.VIRTUAL, owner = "java/lang/Runtime", method = "totalMemory", desc = "()J")
    public static long totalMemory(Runtime r, int site) {
        return memory(r, site, 1);
    }

    @CallSite(kind = CallSite.Kind.VIRTUAL, owner = "java/lang/Runtime", method = "maxMemory", desc = "()J")
    public static long maxMemory(Runtime r, int site) {
        return memory(r, site, 2);
    }

    private static long memory(Runtime r, int site, int which) {
        if (!Rt.claim()) {
            return liveMemory(r, which);
        }
        Ev ev = Ev.begin(MEMORY, site, which);
        try {
            return ev.j(ev.live() ? liveMemory(r, which) : 0);
        } finally {
            ev.end();
        }
    }

    private static long liveMemory(Runtime r, int which) {
        return switch (which) {
            case 0 -> r.freeMemory();
            case 1 -> r.totalMemory();
            default -> r.maxMemory();
        };
    }

    @Prologue(owner = "java/lang/ProcessHandleImpl", method = "pid", desc = "()J")
    public static long pid(Object handle) throws Throwable {
        Ev ev = Ev.begin(PID, 0, 0);
        try {
            return ev.j(ev.live() ? (long) PID_LIVE.invokeExact(handle) : 0);
        } finally {
            ev.end();
        }
    }
}
