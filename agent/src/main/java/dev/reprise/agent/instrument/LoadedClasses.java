package dev.reprise.agent.instrument;

import java.lang.instrument.ClassDefinition;
import java.lang.instrument.Instrumentation;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import jdk.internal.misc.Unsafe;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

import dev.reprise.agent.instrument.cache.CacheEntry;
import dev.reprise.agent.instrument.cache.ClassCache;
import dev.reprise.agent.runtime.jdk.JdkLoaders;

/**
 * Instruments the JDK classes the JVM loaded before the agent started: the catalogue's, those
 * {@link QuietCallRewriter} changes, and those not initialized yet, whose initializers are to be
 * bracketed ({@link UnloggedRewriter}), as a class first loaded later is. Retransforming them has the JVM
 * rebuild each class file and pass it to the transformer, which reads its cache entry: half of
 * retransforming's cost, and a tenth of every run's start-up. So the cache keeps the instrumented
 * bytes of the last run's set in one file ({@link ClassCache#startupEntries}), and start-up
 * redefines those classes with them directly, except the quarter whose code the passes leave as
 * it was ({@link Unchanged}); it retransforms only the classes the file lacks.
 *
 * <p>Redefining bypasses the bytes the JVM would have given the transformer, so it is only done
 * when they are certainly the JDK's own, as the cache's directory (this JDK) says: when no other
 * agent runs and no module is patched; and when the JDK's classes are not verified ({@link #keptBytesUsable}).
 *
 * <p>Redefining happens before Reprise's transformers are registered: with none registered, the
 * JVM posts no class-file hook for the redefined classes, so it does not copy each class file into
 * the Java heap for each transformer, only for it to return nothing (5 MB of garbage at every
 * start-up, which made the program's first collections come earlier). The classes are listed
 * again once the transformers are in place: one loaded meanwhile is retransformed with the rest.
 *
 * <p>A class the file lacks is instrumented from its class file in the JDK's image and redefined
 * too, not retransformed ({@link Transformer#instrumentLoaded}). A retransformation keeps the
 * bytes it started from, and every later one (another agent's) starts from them again: Mockito's
 * inline mock maker retransforms {@code ArrayList} to spy on one, which dropped Reprise's
 * instrumentation of a class start-up had retransformed, as the transformer, registered without
 * retransforming, does not put it back; a redefined class keeps it. Before, a recording made
 * with a fresh cache hashed a spied list's elements with the JVM's hashes, and its replay, with
 * the cache warm, with Reprise's.
 */
public final class LoadedClasses {
    /** The native library behind {@code -javaagent}, named as an option: a java agent too. */
    private static final String JAVA_AGENT_LIBRARY = "-agentlib:instrument=";
    /** Classes redefined by one call at start-up ({@link #redefine}). */
    private static final int REDEFINED_PER_CALL = 100;
    /** At most this many rounds of redefinition ({@link #redefine}): two are enough on JDK 17 and 25. */
    private static final int REDEFINING_ROUNDS = 4;

    private LoadedClasses() {
    }

    /**
     * Instruments the loaded classes; {@code install} registers the transformers, which must not
     * be registered before.
     */
    public static void instrument(Instrumentation inst, Transformer transformer, Runnable install) throws Exception {
        ClassCache cache = transformer.cache();
        boolean redefine = keptBytesUsable(jdk.internal.misc.VM.getRuntimeArguments());
        Map<String, CacheEntry> kept = redefine && cache != null ? cache.startupEntries() : Map.of();
        Map<String, CacheEntry> made = new HashMap<>();
        Set<String> redefined = redefine ? redefine(inst, transformer, kept, made) : Set.of();
        install.run();
        try {
            List<Class<?>> rest = new ArrayList<>();
            for (Class<?> c : targets(inst, transformer.catalogue(), cache)) {
                String name = c.getName().replace('.', '/');
                if (!redefined.contains(name) && !transformer.loadedDuringStartup(name)) {
                    rest.add(c);
                }
            }
            if (!rest.isEmpty()) {
                transformer.collectRetransformed(true);
                try {
                    inst.retransformClasses(rest.toArray(new Class<?>[0]));
                } finally {
                    made.putAll(transformer.collectRetransformed(false));
                }
            }
        } finally {
            transformer.startupEnded();
        }
        if (redefine && cache != null && !made.isEmpty()) {
            // Kept with those of earlier runs: a replay may load a few classes before the agent
            // that its recording did not, and the other way round.
            Map<String, CacheEntry> all = new HashMap<>(kept);
            all.putAll(made);
            cache.saveStartupEntries(all);
        }
    }

    /**
     * Redefines the loaded classes to change with their instrumented bytes, kept by an earlier run
     * or made now (into {@code made}); returns their names. In rounds: redefining a class the JVM
     * took from its class-data archive can load others (on JDK 25, about 300: classes its new
     * version names, such as its nested classes and the exceptions it throws), and those are
     * redefined in the next round rather than retransformed with the transformers in place, which
     * costs several times as much per class.
     */
    private static Set<String> redefine(Instrumentation inst, Transformer transformer, Map<String, CacheEntry> kept,
                                        Map<String, CacheEntry> made) throws Exception {
        Set<String> redefined = new HashSet<>();
        Set<Class<?>> looked = Collections.newSetFromMap(new IdentityHashMap<>());
        for (int round = 0; round < REDEFINING_ROUNDS; round++) {
            List<ClassDefinition> definitions = new ArrayList<>();
            for (Class<?> c : targets(inst, transformer.catalogue(), transformer.cache(), looked)) {
                String name = c.getName().replace('.', '/');
                CacheEntry e = kept.get(name);
                if (e == null) {
                    e = transformer.instrumentLoaded(c);
                    if (e != null) {
                        made.put(name, e);
                    }
                }
                if (e != null) {
                    if (!e.unchanged()) {
                        definitions.add(new ClassDefinition(c, e.bytes()));
                    }
                    redefined.add(name);
                    transformer.adopt(name, e);
                }
            }
            if (definitions.isEmpty()) {
                break;
            }
            redefineInBatches(inst, definitions, redefined, made);
        }
        transformer.redefinedAtStartup(redefined);
        return redefined;
    }

    /** Redefines with {@code definitions}, taking the ones the JVM refuses out of {@code redefined} and {@code made}. */
    private static void redefineInBatches(Instrumentation inst, List<ClassDefinition> definitions, Set<String> redefined,
                                          Map<String, CacheEntry> made) throws Exception {
        // In batches: the JVM copies every class file of a call into native memory at once, and
        // frees the old versions' metaspace only when the call ends, for the next call to reuse.
        // Each call costs a safepoint and a walk of every loaded class besides.
        for (int from = 0; from < definitions.size(); from += REDEFINED_PER_CALL) {
            List<ClassDefinition> batch = definitions.subList(from, Math.min(definitions.size(), from + REDEFINED_PER_CALL));
            for (ClassDefinition refused : redefine(inst, batch)) {
                String name = refused.getDefinitionClass().getName().replace('.', '/');
                redefined.remove(name);
                made.remove(name);
            }
        }
    }

    /**
     * Redefines {@code batch} in one call, or, if the JVM refuses it, class by class; returns the
     * definitions it refused, which start-up retransforms instead. The JVM's class may not be the
     * one the image's class file defines: JDK 25's class-data archive holds holder classes of
     * method handles it generated with other methods, and redefining them with the file's bytes
     * would change their schema.
     */
    private static List<ClassDefinition> redefine(Instrumentation inst, List<ClassDefinition> batch) throws Exception {
        try {
            inst.redefineClasses(batch.toArray(new ClassDefinition[0]));
            return List.of();
        } catch (UnsupportedOperationException | LinkageError e) {
            if (batch.size() == 1) {
                return batch;
            }
            List<ClassDefinition> refused = new ArrayList<>();
            for (ClassDefinition d : batch) {
                refused.addAll(redefine(inst, List.of(d)));
            }
            return refused;
        }
    }

    /**
     * The JDK classes loaded before the agent that it must change: those the catalogue changes,
     * those that call into java.util.concurrent ({@link QuietCallRewriter}), and those not
     * initialized yet. An initialized class's initializer never runs again, so the others are
     * left as they are.
     */
    private static List<Class<?>> targets(Instrumentation inst, Catalogue catalogue, ClassCache cache) {
        return targets(inst, catalogue, cache, Collections.newSetFromMap(new IdentityHashMap<>()));
    }

    /**
     * The targets among the loaded classes not in {@code looked}, to which it adds every class it
     * looks at: a later round of {@link #redefine} looks only at the classes loaded since.
     */
    private static List<Class<?>> targets(Instrumentation inst, Catalogue catalogue, ClassCache cache, Set<Class<?>> looked) {
        Map<String, Boolean> quiet = cache == null ? new HashMap<>() : cache.quietVerdicts();
        int known = quiet.size();
        List<Class<?>> targets = new ArrayList<>();
        for (Class<?> c : inst.getAllLoadedClasses()) {
            if (!looked.add(c)) {
                continue;
            }
            String name = c.getName().replace('.', '/');
            if ((catalogue.changesJdkClass(name) || QuietCallRewriter.appliesToLoaded(c, name, quiet)
                    || uninitializedJdkInitializer(c, name, quiet)) && inst.isModifiableClass(c)) {
                targets.add(c);
            }
        }
        if (cache != null && quiet.size() != known) {
            cache.saveQuietVerdicts();
        }
        return targets;
    }

    /**
     * Whether {@code c} is a JDK class (not Reprise's own) the JVM has not initialized, with a
     * static initializer; {@code known} holds the answers about initializers found so far, as
     * {@link QuietCallRewriter#appliesToLoaded} keeps its own, under the name followed by
     * {@code .<clinit>}. A class without one is left alone: the transformer itself names some
     * (an exception it catches), and retransforming one of those failed with a
     * {@code ClassCircularityError}. One initialized between this test and its
     * retransformation ran its initializer unbracketed, in premain, before any recorded thread
     * exists.
     */
    private static boolean uninitializedJdkInitializer(Class<?> c, String name, Map<String, Boolean> known) {
        return JdkLoaders.isJdk(c.getClassLoader()) && Transformer.isJdkName(name) && !name.startsWith("dev/reprise/")
                && Unsafe.getUnsafe().shouldBeInitialized(c)
                && known.computeIfAbsent(name + ".<clinit>", k -> declaresInitializer(name));
    }

    private static boolean declaresInitializer(String name) {
        try (java.io.InputStream in = ClassLoader.getSystemResourceAsStream(name + ".class")) {
            if (in == null) {
                return false;
            }
            boolean[] found = {false};
            new ClassReader(in).accept(new ClassVisitor(Opcodes.ASM9) {
                @Override
                public MethodVisitor visitMethod(int access, String method, String desc, String signature, String[] exceptions) {
                    found[0] |= method.equals("<clinit>");
                    return null;
                }
            }, ClassReader.SKIP_CODE | ClassReader.SKIP_DEBUG | ClassReader.SKIP_FRAMES);
            return found[0];
        } catch (java.io.IOException | RuntimeException e) {
            return false;
        }
    }

    /**
     * Whether the JVM's options start no agent but Reprise's, patch no module and do not have the
     * JDK's own classes verified. A flight recording started from the command line starts after
     * premain, and then retransforms the JDK classes it reports on (file and socket streams,
     * {@code Throwable}): those must have been redefined, so that its retransformation starts
     * from Reprise's bytes and keeps them; an event class it changed as it loaded, which a
     * redefinition cannot match, is refused and retransformed. Verified classes: bytes kept by a run that did not
     * verify them may lack stack map frames, which the JVM's class-data archive does not always
     * keep (seen: {@code AbstractMap$SimpleEntry.equals}), and a redefinition the JVM verifies
     * would then fail. Retransforming has the JVM rebuild the class files, with their frames.
     */
    static boolean keptBytesUsable(String[] jvmOptions) {
        for (String o : jvmOptions) {
            if (nativeAgent(o) || o.startsWith("--patch-module") || o.equals("-Xverify:all")
                    || o.equals("-XX:+BytecodeVerificationLocal")) {
                return false;
            }
        }
        return javaAgents(jvmOptions) == 1;
    }

    /** Whether {@code option} starts a native agent other than the debugger and the java agents' library. */
    private static boolean nativeAgent(String option) {
        return option.startsWith("-agentpath:") || option.startsWith("-agentlib:")
                && !option.startsWith("-agentlib:jdwp") && !option.startsWith(JAVA_AGENT_LIBRARY);
    }

    /** How many java agents the JVM's options start, Reprise's among them. */
    static int javaAgents(String[] jvmOptions) {
        int agents = 0;
        for (String o : jvmOptions) {
            if (o.startsWith("-javaagent:") || o.startsWith(JAVA_AGENT_LIBRARY)) {
                agents++;
            }
        }
        return agents;
    }
}
