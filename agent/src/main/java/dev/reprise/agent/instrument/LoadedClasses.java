package dev.reprise.agent.instrument;

import java.lang.instrument.ClassDefinition;
import java.lang.instrument.Instrumentation;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;


/**
 * Instruments the JDK classes the JVM loaded before the agent started (a few hundred: the
 * catalogue's and those {@link QuietCallRewriter} changes). Retransforming them has the JVM
 * rebuild each class file and pass it to the transformer, which reads its cache entry: half of
 * retransforming's cost, and a tenth of every run's start-up. So the cache keeps the instrumented
 * bytes of the last run's set in one file ({@link ClassCache#startupEntries}), and start-up
 * redefines those classes with them directly; it retransforms only the classes the file lacks.
 *
 * <p>Redefining bypasses the bytes the JVM would have given the transformer, so it is only done
 * when they are certainly the JDK's own, as the cache's directory (this JDK) says: when no other
 * agent runs, no module is patched and Flight Recorder, which instruments JDK classes itself, is
 * not started from the command line.
 */
public final class LoadedClasses {
    private LoadedClasses() {
    }

    public static void instrument(Instrumentation inst, Transformer transformer) throws Exception {
        ClassCache cache = transformer.cache();
        List<Class<?>> targets = targets(inst, transformer.catalogue(), cache);
        boolean redefine = cache != null && onlyAgent(jdk.internal.misc.VM.getRuntimeArguments());
        Map<String, ClassCache.Entry> kept = redefine ? cache.startupEntries() : Map.of();
        List<ClassDefinition> definitions = new ArrayList<>();
        Set<String> redefined = new HashSet<>();
        List<Class<?>> rest = new ArrayList<>();
        for (Class<?> c : targets) {
            String name = c.getName().replace('.', '/');
            ClassCache.Entry e = kept.get(name);
            if (e == null) {
                rest.add(c);
                continue;
            }
            definitions.add(new ClassDefinition(c, e.bytes()));
            redefined.add(name);
            transformer.adopt(name, e);
        }
        transformer.redefinedAtStartup(redefined);
        if (!definitions.isEmpty()) {
            inst.redefineClasses(definitions.toArray(new ClassDefinition[0]));
        }
        if (rest.isEmpty()) {
            return;
        }
        transformer.collectRetransformed(true);
        Map<String, ClassCache.Entry> made;
        try {
            inst.retransformClasses(rest.toArray(new Class<?>[0]));
        } finally {
            made = transformer.collectRetransformed(false);
        }
        if (redefine) {
            // Kept with those of earlier runs: a replay may load a few classes before the agent
            // that its recording did not, and the other way round.
            Map<String, ClassCache.Entry> all = new HashMap<>(kept);
            all.putAll(made);
            cache.saveStartupEntries(all);
        }
    }

    /**
     * The JDK classes loaded before the agent that it must change: those the catalogue changes,
     * and those that call into java.util.concurrent ({@link QuietCallRewriter}).
     */
    private static List<Class<?>> targets(Instrumentation inst, Catalogue catalogue, ClassCache cache) {
        Map<String, Boolean> quiet = cache == null ? new HashMap<>() : cache.quietVerdicts();
        int known = quiet.size();
        List<Class<?>> targets = new ArrayList<>();
        for (Class<?> c : inst.getAllLoadedClasses()) {
            if ((catalogue.changesJdkClass(c.getName().replace('.', '/')) || QuietCallRewriter.appliesToLoaded(c, quiet))
                    && inst.isModifiableClass(c)) {
                targets.add(c);
            }
        }
        if (cache != null && quiet.size() != known) {
            cache.saveQuietVerdicts();
        }
        return targets;
    }

    /** Whether the JVM's options start no agent but Reprise's, patch no module and start no flight recording. */
    static boolean onlyAgent(String[] jvmOptions) {
        for (String o : jvmOptions) {
            if (o.startsWith("-agentpath:") || o.startsWith("-agentlib:") && !o.startsWith("-agentlib:jdwp")
                    || o.startsWith("--patch-module") || o.startsWith("-XX:StartFlightRecording")
                    || o.startsWith("-XX:+FlightRecorder")) {
                return false;
            }
        }
        return javaAgents(jvmOptions) == 1;
    }

    /** How many java agents the JVM's options start, Reprise's among them. */
    static int javaAgents(String[] jvmOptions) {
        int agents = 0;
        for (String o : jvmOptions) {
            if (o.startsWith("-javaagent:")) {
                agents++;
            }
        }
        return agents;
    }
}
