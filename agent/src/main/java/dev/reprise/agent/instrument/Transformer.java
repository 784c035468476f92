package dev.reprise.agent.instrument;

import java.lang.instrument.ClassFileTransformer;
import java.security.ProtectionDomain;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.ClassWriter;

import dev.reprise.agent.instrument.cache.CacheEntry;
import dev.reprise.agent.instrument.cache.ClassCache;
import dev.reprise.agent.instrument.cache.ClassPack;
import dev.reprise.agent.ops.JdkInternals;
import dev.reprise.agent.runtime.events.Divergence;
import dev.reprise.agent.runtime.events.Rt;
import dev.reprise.agent.runtime.events.Sites;
import dev.reprise.agent.runtime.jdk.JdkLoaders;
import dev.reprise.agent.runtime.ordering.RaceWatch;
import dev.reprise.agent.runtime.ordering.ThreadRandoms;
import dev.reprise.core.config.JdkClassNames;

/**
 * Applies the catalogue to classes as they load or are retransformed: prologues to hooked JDK
 * methods, call-site rewrites to application classes and to the JDK classes the catalogue names.
 * A JDK class that fails to instrument stops the JVM: a recording with a hole is worse than none.
 */
public final class Transformer implements ClassFileTransformer {
    private final Catalogue catalogue;
    private final Set<String> prologueMisses = ConcurrentHashMap.newKeySet();
    private final VolatileFields volatiles = new VolatileFields();
    /** Classes as instrumented by earlier runs, or null. */
    private final ClassCache cache;
    /**
     * JDK classes start-up redefined with their kept instrumented bytes ({@link LoadedClasses}):
     * those bytes are now what a retransformation starts from, so it must not instrument them
     * again. Written once by the main thread in premain before it redefines them; read by the
     * transformer on any thread after (volatile: publishes the set).
     */
    private volatile Set<String> redefinedAtStartup = Set.of();
    /**
     * Until start-up's retransformation ends ({@link #startupEnded}), the classes first loaded
     * since this transformer was installed. They are instrumented already, and a retransformation
     * would instrument them twice: the JVM keeps a class file, for retransforming, as the
     * transformers that do not retransform left it. Null after start-up (volatile: any thread may
     * load a class meanwhile).
     */
    private volatile Set<String> loadedDuringStartup = ConcurrentHashMap.newKeySet();
    /** While start-up retransforms (main thread only): the entries it produced or read, by class. */
    private Map<String, CacheEntry> retransformedAtStartup;

    /** {@code cache}: instrumented classes kept between runs, or null. */
    public Transformer(Catalogue catalogue, ClassCache cache) {
        this.catalogue = catalogue;
        this.cache = cache;
        ClassFiles.prepare(); // before any transformation: it loads JDK classes
    }

    Catalogue catalogue() {
        return catalogue;
    }

    ClassCache cache() {
        return cache;
    }

    /**
     * What a cache hit registers, for a class whose kept entry start-up puts in place without the
     * transformer: its call sites' names and its fields.
     */
    void adopt(String name, CacheEntry entry) {
        registerSites(entry);
        if (entry.declared() != null) {
            volatiles.defineKept(name, entry.declared());
        }
    }

    private static void registerSites(CacheEntry entry) {
        for (String site : entry.sites()) {
            Sites.registerName(site);
        }
    }

    /**
     * Start-up, before this transformer is registered: the entry of {@code c}, a JDK class loaded
     * before the agent, instrumented as its retransformation would be, from its class file in the
     * JDK's image; null if the image has none (a class the JVM spun). Read from the cache when
     * an earlier run made it.
     */
    CacheEntry instrumentLoaded(Class<?> c) throws java.io.IOException {
        String name = c.getName().replace('.', '/');
        byte[] bytes;
        try (java.io.InputStream in = ClassFiles.open(null, name)) {
            if (in == null) {
                return null;
            }
            bytes = in.readAllBytes();
        }
        collectRetransformed(true);
        Map<String, CacheEntry> made;
        try {
            transform(c.getClassLoader(), name, false, bytes, true);
        } finally {
            made = collectRetransformed(false);
        }
        return made.get(name);
    }

    /** Adds {@code names} to the classes start-up redefined with their instrumented bytes. */
    void redefinedAtStartup(Set<String> names) {
        Set<String> all = new java.util.HashSet<>(redefinedAtStartup);
        all.addAll(names);
        redefinedAtStartup = Set.copyOf(all);
    }

    /** Starts ({@code on}) or ends collecting what retransformation produces; returns what was collected. */
    Map<String, CacheEntry> collectRetransformed(boolean on) {
        Map<String, CacheEntry> collected = retransformedAtStartup;
        retransformedAtStartup = on ? new java.util.HashMap<>() : null;
        return collected;
    }

    /** Whether {@code name} was first loaded since this transformer was installed, during start-up. */
    boolean loadedDuringStartup(String name) {
        Set<String> loaded = loadedDuringStartup;
        return loaded != null && loaded.contains(name);
    }

    /** Start-up's retransformation has ended: later class loads need not be remembered. */
    void startupEnded() {
        loadedDuringStartup = null;
    }

    @Override
    public byte[] transform(Module module, ClassLoader loader, String name, Class<?> redefined,
                            ProtectionDomain domain, byte[] bytes) {
        Set<String> loaded = loadedDuringStartup;
        if (redefined == null && loaded != null && name != null) {
            loaded.add(name);
        } else if (redefined != null && (redefinedAtStartup.contains(name) || loadedDuringStartup(name))) {
            return null; // already instrumented: these bytes are the kept ones, or the first load's
        }
        return transform(loader, name, redefined == null, bytes, true);
    }

    /**
     * A hidden class the program or its libraries define through a {@code Lookup} (a lambda's
     * class, spun as its {@code invokedynamic} links), which the JVM gives no transformer: a method
     * reference such as {@code Thread::sleep} is a call in it, and must reach the hook as the same
     * call in the host does. Instrumented like a class the host's loader loads; the JDK's own
     * hidden classes (its lambdas, method handles' forms) are left as they are. {@code binaryName}
     * is the name the class file gives, as the JDK's definer passes it. The bytes to define.
     * Cached like a loaded class, by name and checksum: a program spins the same lambda classes
     * in every run, and instrumenting them each time put the instrumenter's work, and its
     * compilation, inside the program's time.
     */
    public byte[] instrumentHidden(ClassLoader loader, String binaryName, byte[] bytes) {
        String name = binaryName != null ? binaryName.replace('.', '/') : new ClassReader(bytes).getClassName();
        if (isJdkName(name)) {
            return bytes;
        }
        byte[] out = transform(loader, name, true, bytes, true);
        return out == null ? bytes : out;
    }

    private byte[] transform(ClassLoader loader, String name, boolean firstLoad, byte[] bytes, boolean useCache) {
        if (name == null || name.startsWith("dev/reprise/")) {
            return null;
        }
        // What transforming runs (reading class files, the agent's own tables) is not the program's,
        // nor is what it does to the thread's ThreadLocalRandom probes (contended tables advance them).
        // Suppressing first: it may open the thread's context, which gives the thread its probe, and
        // that probe is the program's, to be kept, not overwritten by the zero read before it.
        // Before the first look in the agent's tables: a library that rewrote Object.equals (Mockito's
        // inline mock maker) runs its advice in their lookups, which the program did not make.
        Rt.suppress();
        long probes = ThreadRandoms.probes();
        boolean app = isApplicationClass(name, loader);
        try {
            List<Catalogue.PrologueHook> prologues = catalogue.prologuesOf(name);
            List<Catalogue.ConstructedHook> constructed = catalogue.constructedHooksOf(name);
            Passes passes = new Passes(app, app || catalogue.rewritesSitesIn(name),
                    app || catalogue.ordersMonitorsIn(name) || Catalogue.ordersSyncActionsIn(name),
                    app || Catalogue.ordersSyncActionsIn(name) || OrderedFields.declaredIn(name), !app && QuietCallRewriter.candidate(name),
                    JdkInternals.hasUnloggedMethods(name), RaceWatch.on() && (app || RaceWatchRewriter.watchesJdk(name)));
            if (!useCache || cache == null) {
                byte[] out = instrument(name, lookup(loader, passes, bytes), bytes, prologues, constructed, passes, firstLoad);
                if (useCache && !firstLoad && retransformedAtStartup != null) {
                    // Without a cache too: start-up redefines the class with them (instrumentLoaded).
                    collect(name, false, new CacheEntry(Unchanged.code(bytes, out) ? CacheEntry.UNCHANGED : out,
                            List.of(), List.of(), null));
                }
                return out;
            }
            return cached(name, loader, bytes, prologues, constructed, passes, firstLoad);
        } catch (Throwable t) {
            Divergence.message("cannot instrument " + name.replace('/', '.') + ": " + t);
            if (!app) {
                Runtime.getRuntime().halt(70);
            }
            return null;
        } finally {
            Rt.unsuppress();
            ThreadRandoms.restore(probes);
        }
    }

    private byte[] cached(String name, ClassLoader loader, byte[] bytes, List<Catalogue.PrologueHook> prologues,
                          List<Catalogue.ConstructedHook> constructed, Passes passes, boolean firstLoad) {
        // A JDK loader's class sees only the JDK, which names the cache directory. A class path
        // class was instrumented against the fields of other classes there, which may have
        // changed without it: its entry is used only if they still give the same answers, or if
        // it comes from a pack that vouches for them.
        boolean classPath = !JdkLoaders.isJdk(loader);
        boolean packable = firstLoad && (!classPath || ClassFiles.isAppLoader(loader));
        ClassPack.Hit packHit = packable ? cache.packed(name, bytes) : null;
        boolean vouched = packHit != null && packHit.vouched();
        CacheEntry hit = packHit != null ? packHit.entry() : cache.get(name, firstLoad, bytes);
        if (hit != null && passes.syncActions()) {
            // What the skipped pass would have registered.
            if (hit.declared() != null) {
                volatiles.defineKept(name, hit.declared());
            } else {
                volatiles.defineFromClassFile(name, bytes);
            }
        }
        if (hit != null && (!classPath || vouched || volatiles.stillAnswers(loader, hit.answers()))) {
            registerSites(hit);
            collect(name, firstLoad, hit);
            // Into the next pack: a class it lacks, or one whose answers it may now vouch for.
            if (packable && (packHit == null || classPath && !vouched && cache.packMayVouch())) {
                cache.pack(name, bytes);
            }
            return hit.unchanged() ? null : hit.bytes();
        }
        List<String> sites = new ArrayList<>();
        List<String> prior = Sites.capture(sites);
        VolatileFields.Lookup lookup = lookup(loader, passes, bytes);
        byte[] out;
        try {
            out = instrument(name, lookup, bytes, prologues, constructed, passes, firstLoad);
        } finally {
            Sites.endCapture(prior);
        }
        boolean unchanged = Unchanged.code(bytes, out);
        CacheEntry made = new CacheEntry(unchanged ? CacheEntry.UNCHANGED : out, sites,
                classPath ? lookup.answers() : List.of(), CacheEntry.declaredBytes(lookup.declared()));
        cache.put(name, firstLoad, bytes, made);
        if (packable) {
            cache.pack(name, bytes);
        }
        collect(name, firstLoad, made);
        return unchanged ? null : out;
    }

    /** The questions about fields of the class {@code bytes}, an application class's own handles' fields among the ordered ({@link HandleFields}). */
    private VolatileFields.Lookup lookup(ClassLoader loader, Passes passes, byte[] bytes) {
        return volatiles.lookup(loader, passes.application() ? HandleFields.of(bytes) : Set.of());
    }

    /** At exit: keeps this run's classes in the class path's pack ({@link ClassPack}) for the next run. */
    public void saveForNextRun() {
        if (cache != null) {
            cache.savePack();
        }
    }

    /** Only retransformations, which happen on the main thread in premain, read the field. */
    private void collect(String name, boolean firstLoad, CacheEntry entry) {
        if (!firstLoad && retransformedAtStartup != null) {
            retransformedAtStartup.put(name, entry);
        }
    }

    /**
     * With a cache, start-up may instrument nothing: the JDK classes instrumenting needs (ASM's
     * strings need StringUTF16) would then first load while some class is being instrumented,
     * and instrumenting one of them would need itself. Instrumenting two JDK classes that take
     * every pass, and dropping the result, loads them before the transformer is installed.
     */
    public void warmUp() {
        if (cache == null) {
            return;
        }
        for (String name : new String[] {"java/util/concurrent/CopyOnWriteArrayList", "java/util/Random"}) {
            try (java.io.InputStream in = ClassFiles.open(null, name)) {
                byte[] bytes = in.readAllBytes();
                transform(null, name, true, bytes, false);
            } catch (java.io.IOException e) {
                throw new IllegalStateException("cannot read " + name, e);
            }
        }
    }

    /**
     * Which passes a class gets besides its prologues and the bracket of its static initializer,
     * which every class gets ({@link UnloggedRewriter}).
     */
    private record Passes(boolean application, boolean sites, boolean monitors, boolean syncActions, boolean quietCalls,
                          boolean unloggedMethods, boolean races) {
    }

    /** What the program's native methods are renamed with ({@link NativeMethodWrapper}). */
    public static final String NATIVE_PREFIX = NativeMethodWrapper.PREFIX;

    private byte[] instrument(String name, VolatileFields.Lookup volatileFields, byte[] bytes,
                              List<Catalogue.PrologueHook> prologues, List<Catalogue.ConstructedHook> constructed,
                              Passes passes, boolean firstLoad) {
        ClassReader reader = new ClassReader(bytes);
        // No COMPUTE_MAXS: each pass raises the stack size of a method it adds code to by what it
        // adds, which spares a data-flow analysis of every method (most of the cost of instrumenting
        // the JDK at start-up), and leaves the others' sizes, by which C1 decides what to inline.
        ClassWriter writer = new ClassWriter(reader, 0);
        List<Catalogue.PrologueHook> applied = new ArrayList<>();
        ClassVisitor chain = writer;
        boolean atomics = passes.syncActions() && SyncActionRewriter.namesAtomicAccess(reader);
        // Whether the class makes atomic accesses, read from its code once, and only for the passes
        // that ask: an application class's then orders its reference elements, a named class's its
        // primitive elements too, and a learning recording watches its primitive elements.
        boolean makesAtomics = atomics && (passes.application() || OrderedFields.ordersElementsIn(name))
                && SyncActionRewriter.makesAtomicAccess(reader);
        boolean repeatedReads = passes.syncActions() && OrderedFields.mayBeNamedIn(reader);
        boolean monitorLocals = passes.monitors() && firstLoad;
        if (passes.application()) {
            // Nearest the writer: its overrides are complete, for no other pass to change.
            chain = new InheritedHookOverrides(chain, catalogue);
        }
        if (passes.application()) {
            // Next nearest: the other passes see a native method as it was, with no code to change.
            // It passes any other method through as it is.
            chain = new NativeMethodWrapper(chain);
        }
        MethodLocals locals = atomics || repeatedReads || monitorLocals
                ? MethodLocals.read(reader, atomics || repeatedReads) : MethodLocals.NONE;
        // The bracketing passes come last (nearest the writer): they see every other pass's
        // exception-table entries (a synchronized method's, an initializer's) and code, so their
        // handlers, placed after it all, rethrow into the entries that cover each bracket.
        if (passes.syncActions()) {
            // The class's own fields and hashCode, known before any pass asks about them.
            volatileFields.define(name, VolatileFields.scan(reader));
            chain = new SyncActionRewriter(chain, volatileFields, locals, passes.application(), makesAtomics);
            if (repeatedReads) {
                chain = new RepeatedReads(chain, volatileFields, locals);
            }
            if (passes.application() && UnsafeWarningRewriter.applies(atomics)) {
                // Ahead of the bracket SyncActionRewriter puts around the call.
                chain = new UnsafeWarningRewriter(chain);
            }
        } else if (passes.quietCalls()) {
            if (QuietCallRewriter.applies(name, reader)) {
                chain = new QuietCallRewriter(chain, name);
            }
            if (UnwatchedCallRewriter.applies(name, reader)) {
                chain = new UnwatchedCallRewriter(chain);
            }
        }
        if (!prologues.isEmpty()) {
            chain = new PrologueInserter(chain, prologues, applied);
        }
        List<Catalogue.ConstructedHook> constructors = new ArrayList<>();
        if (!constructed.isEmpty()) {
            chain = new ConstructedInserter(chain, constructed, constructors);
        }
        if (passes.sites()) {
            // The libraries the program runs as its own get the hooks of the program's own calls too.
            chain = new CallSiteRewriter(chain, catalogue, passes.application() || Catalogue.runsAsProgram(name), volatileFields);
        }
        if (passes.monitors()) {
            chain = new MonitorRewriter(chain, firstLoad, locals);
        }
        if (passes.application() && firstLoad) {
            // Farther from the writer than MonitorRewriter, which orders the blocks it adds.
            chain = new SynchronizedCallRewriter(chain, catalogue);
        }
        // Also on retransformation: a class loaded before the agent may not be initialized yet.
        chain = new UnloggedRewriter(chain, passes.application() ? "enterOrdered" : "enter", passes.application());
        if (passes.application()) {
            // Farther from the writer than the passes that add handlers of their own: it sees the program's alone.
            chain = new ErrorHandlerRewriter(chain);
            chain = new InitializerHashesRewriter(chain);
            if (ConstructedHashesRewriter.applies(reader)) {
                chain = new ConstructedHashesRewriter(chain);
            }
        }
        if (passes.races()) {
            // Farthest from the writer: it sees the class's own field instructions, and its calls
            // pass through every other pass, none of which rewrites them.
            chain = new RaceWatchRewriter(chain, volatileFields, passes.application(), makesAtomics);
        }
        reader.accept(chain, 0);
        for (Catalogue.PrologueHook h : prologues) {
            if (!containsSame(applied, h) && !h.optional() && prologueMisses.add(h.owner() + h.method() + h.desc())) {
                throw new IllegalStateException("hooked method " + h.method() + h.desc() + " not found");
            }
        }
        for (Catalogue.ConstructedHook h : constructed) {
            if (!containsSame(constructors, h)) {
                throw new IllegalStateException("hooked constructor " + h.owner() + ".<init>" + h.desc() + " not found");
            }
        }
        return writer.toByteArray();
    }

    /**
     * By identity: the passes report the very hooks they were given, and a record's own equals
     * would bootstrap {@code ObjectMethods} (method handle classes spun in every JVM's start-up).
     */
    private static boolean containsSame(List<?> list, Object o) {
        for (Object e : list) {
            if (e == o) {
                return true;
            }
        }
        return false;
    }

    private static boolean isApplicationClass(String name, ClassLoader loader) {
        return !JdkLoaders.isJdk(loader) && !isJdkName(name);
    }

    /** Whether {@code name} is in the JDK's (or the agent's) packages, whatever loads it. */
    public static boolean isJdkName(String name) {
        return JdkClassNames.isJdk(name);
    }
}
