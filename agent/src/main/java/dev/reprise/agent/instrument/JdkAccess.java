package dev.reprise.agent.instrument;

import java.lang.instrument.Instrumentation;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * Lets instrumented JDK code call Reprise's runtime, and the runtime reach JDK internals. The
 * runtime lives in the boot loader's unnamed module, which named modules do not read: java.base
 * is made to read it (java.instrument, java.management and jdk.attach too), and opens the packages whose private methods hooks call for real.
 */
public final class JdkAccess {
    private static final String[] OPENED = {
        "java.lang", "java.lang.invoke", "java.io", "java.util", "java.util.concurrent", "java.util.concurrent.locks", "java.util.concurrent.atomic", "java.time", "java.net", "java.nio",
        "java.nio.channels.spi", "java.nio.file", "java.security", "java.util.zip", "sun.nio.ch", "sun.nio.fs", "jdk.internal.access",
        "jdk.internal.event", "jdk.internal.misc", "jdk.internal.loader", "jdk.internal.module",
        "java.lang.ref", "jdk.internal.ref", "jdk.internal.perf"
    };

    private JdkAccess() {
    }

    public static void open(Instrumentation inst, Module runtime) {
        Module base = Object.class.getModule();
        Map<String, Set<Module>> opens = new HashMap<>();
        for (String p : OPENED) {
            opens.put(p, Set.of(runtime));
        }
        inst.redefineModule(base, Set.of(runtime), opens, opens, Set.of(), Map.of());
        // The agents attached later call into Reprise as they load (ops/processes/ProcessOps), and the
        // program's appends of jars are hooked (ops/classes/InstrumentationOps).
        Map<String, Set<Module>> instrument = Map.of("sun.instrument", Set.of(runtime));
        inst.redefineModule(Instrumentation.class.getModule(), Set.of(runtime), Map.of(), instrument, Set.of(), Map.of());
        // The management beans' implementations are hooked (ops/environment/ManagementOps,
        // OperatingSystemOps).
        ModuleLayer.boot().findModule("java.management").ifPresent(management -> inst.redefineModule(management,
                Set.of(runtime), Map.of(), Map.of("sun.management", Set.of(runtime)), Set.of(), Map.of()));
        // The preferences store's natives are hooked (ops/files/PreferencesFiles).
        ModuleLayer.boot().findModule("java.prefs").ifPresent(prefs -> inst.redefineModule(prefs,
                Set.of(runtime), Map.of(), Map.of("java.util.prefs", Set.of(runtime)), Set.of(), Map.of()));
        // A program's own attach is hooked (ops/processes/AttachCalls).
        ModuleLayer.boot().findModule("jdk.attach").ifPresent(attach -> inst.redefineModule(attach,
                Set.of(runtime), Map.of(), Map.of("sun.tools.attach", Set.of(runtime)), Set.of(), Map.of()));
        ModuleLayer.boot().findModule("jdk.management").ifPresent(management -> inst.redefineModule(management,
                Set.of(runtime), Map.of(), Map.of("com.sun.management.internal", Set.of(runtime)), Set.of(), Map.of()));
    }
}
