package dev.reprise.agent.instrument;

import java.util.Set;

import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.Type;

import dev.reprise.agent.runtime.jdk.JdkLoaders;
import dev.reprise.agent.runtime.ordering.RaceWatch;
import dev.reprise.agent.runtime.ordering.SyncActions;

/**
 * Makes the JDK's own calls into {@code java.util.concurrent} and {@code java.nio.channels} quiet: their synchronization is
 * not ordered ({@link SyncActions#quiet}). The JDK keeps caches and registries in concurrent maps
 * (system properties, time-zone rules, file-system providers, services, class-loading locks)
 * that Reprise's own work fills differently when recording and when replaying, so the program
 * meets them in different states, and the number of synchronization actions on them differs.
 * Such caches answer the same whatever their state, so nothing the program computes depends on
 * their order. What the program reaches itself (its own calls, and {@code java.util.concurrent}
 * and parallel streams calling each other) stays ordered, as do the JDK locks main orders as
 * operations (the console streams).
 *
 * <p>Each call of a {@code java.util.concurrent} method, and each call through a collection
 * interface from JDK code other than {@code java.util}'s collections (caches typed as plain maps
 * and lists), and, when the recording orders fields of {@code java.util} classes, each direct call
 * to such a class or to a collection class the race watch sees ({@link #quietsCollection}), is
 * bracketed with {@code SyncActions.quiet()} and {@code SyncActions.loud()}. Only call sites
 * change, but the quiet lasts until the call returns, over any of the program's code it calls
 * back: so JDK code that iterates the collection its caller handed it is not bracketed
 * ({@link #ITERATE_CALLERS_COLLECTIONS}).
 */
public final class QuietCallRewriter extends CallBracketRewriter {
    private static final String CONCURRENT = "java/util/concurrent/";
    /** Channels: their base classes are ordered for the program's sockets, quiet where the JDK uses them itself (its files). */
    private static final String CHANNELS = "java/nio/channels/";
    private static final Set<String> COLLECTIONS = Set.of("java/util/Map", "java/util/Collection", "java/util/List",
            "java/util/Set", "java/util/Queue", "java/util/Deque", "java/util/Iterator", "java/lang/Iterable",
            "java/util/Enumeration");
    /**
     * The JDK's weak-keyed map, and its subclass behind every {@code ClassValue}: the JDK's own
     * calls to them, direct or not, are quiet, so that only the program's maps read their
     * entries as events ({@code ReferenceOps}); Reprise's own work fills the JDK's differently.
     */
    private static final Set<String> WEAK_MAPS = Set.of("java/util/WeakHashMap", "java/lang/ClassValue$ClassValueMap");
    /**
     * Classes outside {@code java.util} whose calls through the collection interfaces reach the
     * collection their caller handed them, not a cache of their own: {@code Iterable}'s default
     * methods iterate their receiver, {@code String.join} its argument. Quiet, those calls would
     * run the program's own iterator unordered.
     */
    private static final Set<String> ITERATE_CALLERS_COLLECTIONS = Set.of("java/lang/Iterable", "java/lang/String");
    /**
     * JDK classes whose own collections hold the program's objects, and decide what the program
     * sees: a {@code URLClassLoader} keeps each resource stream it hands out in a weak map, and
     * closes those still there when it is closed. Which are still there is the collector's
     * choice, so the class's reads of the map are the program's, replayed ({@code ReferenceOps}):
     * quiet, a replay closed a stream its recording's collector had taken.
     */
    private static final Set<String> HOLD_PROGRAMS_OBJECTS = Set.of("java/net/URLClassLoader");

    /**
     * The static helpers that act on the collections they are handed ({@code addAll}, {@code sort}):
     * quiet with the direct calls above, as the JDK hands them its own lists (the method-handle
     * species cache's, which {@code java.lang.invoke} fills differently when recording and when
     * replaying: Nashorn on JDK 25, with {@code ArrayList}'s fields learned).
     */
    private static final String COLLECTIONS_HELPERS = "java/util/Collections";

    /** What {@code java.util}'s collection classes are named for. */
    private static final String[] COLLECTION_WORDS = {"Collection", "List", "Map", "Set", "Queue", "Deque", "Iterator",
        "Arrays", "Abstract", "Vector", "Stack"};
    private static final String ACTIONS = Type.getInternalName(SyncActions.class);
    /**
     * The types through which work passes to other threads, or is completed for them: the pool's
     * or the waiter's threads are the program's, and read in ordered actions what a call through
     * these writes ({@code Process.onExit} hands its wait to the common pool). Such calls stay
     * ordered, wherever they come from, but the virtual-thread scheduler's.
     */
    private static final Set<String> HANDOFFS = Set.of("Executor", "ExecutorService", "ScheduledExecutorService",
            "AbstractExecutorService", "ThreadPoolExecutor", "ScheduledThreadPoolExecutor", "Executors", "ForkJoinPool",
            "ForkJoinTask", "CountedCompleter", "RecursiveTask", "RecursiveAction", "CompletableFuture",
            "CompletionStage", "Future", "FutureTask", "ExecutorCompletionService", "CompletionService").stream()
            .map(n -> CONCURRENT + n).collect(java.util.stream.Collectors.toUnmodifiableSet());

    /**
     * The JDK's back door into {@code ForkJoinPool}, through which a virtual thread's carrier
     * compensates the scheduler while the virtual thread blocks in a file operation ({@code
     * Blocker}): whether the pool's count changes depends on its carriers, which are not recorded.
     * Ordered, a replay made another number of the pool's actions than its recording.
     */
    private static final String POOL_ACCESS = "jdk/internal/access/JavaUtilConcurrentFJPAccess";

    private final boolean collectionsToo;
    /** Whether the JDK's direct calls to some {@code java.util} classes are quiet ({@link #quietsCollection}). */
    private final boolean orderedCollections;
    /** Whether this class's handoffs stay quiet: the virtual-thread scheduler's, whose carriers are not recorded. */
    private final boolean schedulesVirtualThreads;

    QuietCallRewriter(ClassVisitor next, String className) {
        super(next, ACTIONS, "quiet", "loud");
        this.collectionsToo = collectionsToo(className);
        this.orderedCollections = collectionsToo && OrderedFields.inJavaUtil();
        this.schedulesVirtualThreads = className.startsWith("java/lang/VirtualThread")
                || className.startsWith("java/lang/ThreadBuilders") || className.startsWith("jdk/internal/vm/");
    }

    /**
     * Whether calls through the collection interfaces count too: JDK classes keep caches in plain
     * maps and lists, but {@code java.util}'s own collection classes (named for what they are)
     * hold the program's collections.
     */
    static boolean collectionsToo(String className) {
        if (ITERATE_CALLERS_COLLECTIONS.contains(className) || HOLD_PROGRAMS_OBJECTS.contains(className)) {
            return false;
        }
        if (!className.startsWith("java/util/") || className.indexOf('/', "java/util/".length()) >= 0) {
            return true;
        }
        int nested = className.indexOf('$');
        String outer = nested < 0 ? className : className.substring(0, nested);
        for (String word : COLLECTION_WORDS) {
            if (outer.contains(word)) {
                return false;
            }
        }
        return true;
    }

    /**
     * Whether the JDK's direct calls to {@code owner} are quiet: when the recording orders a field
     * of a {@code java.util} class (learned races on the program's shared lists), calls to that
     * class, to the collection classes the race watch sees, and to {@link #COLLECTIONS_HELPERS}. The JDK's own lists would otherwise
     * make ordered accesses that differ between a recording and its replay: the logger tree's
     * grow as loggers come and the collector takes them away.
     */
    private static boolean quietsCollection(String owner) {
        return RaceWatch.JDK_COLLECTIONS.contains(owner) || OrderedFields.declaredIn(owner)
                || owner.equals(COLLECTIONS_HELPERS);
    }

    /** Whether a JDK class is outside the concurrency code that stays ordered ({@code Catalogue.ordersSyncActionsIn}). */
    static boolean candidate(String className) {
        return !Catalogue.ordersSyncActionsIn(className) && !className.startsWith("dev/reprise/");
    }

    /** Whether the class's constant pool names a class it would bracket calls to: a cheap exact-enough test. */
    static boolean applies(String className, ClassReader reader) {
        if (!candidate(className)) {
            return false;
        }
        boolean collections = collectionsToo(className);
        boolean ordered = collections && OrderedFields.inJavaUtil();
        for (String name : ConstantPool.names(reader, ConstantPool.CLASS)) {
            if (quieted(name, collections, ordered)) {
                return true;
            }
        }
        return false;
    }

    /** Whether calls to {@code owner} are quiet in a class with these verdicts, handoffs aside. */
    private static boolean quieted(String owner, boolean collections, boolean orderedCollections) {
        return owner.startsWith(CONCURRENT) || owner.startsWith(CHANNELS) || owner.equals(POOL_ACCESS)
                || collections && (COLLECTIONS.contains(owner) || WEAK_MAPS.contains(owner))
                || orderedCollections && quietsCollection(owner);
    }

    /**
     * Whether an already loaded JDK class, of internal name {@code name}, must be retransformed
     * for this pass or for {@link UnwatchedCallRewriter}; {@code known} holds the verdicts found so
     * far by class name, and gets this one (the cache keeps them per run kind: fields ordered,
     * races watched).
     */
    static boolean appliesToLoaded(Class<?> c, String name, java.util.Map<String, Boolean> known) {
        ClassLoader loader = c.getClassLoader();
        if (c.isArray() || c.isHidden() || !candidate(name)
                || !JdkLoaders.isJdk(loader)) {
            return false;
        }
        return known.computeIfAbsent(name, QuietCallRewriter::appliesToClassFile);
    }

    private static boolean appliesToClassFile(String name) {
        try (java.io.InputStream in = ClassLoader.getSystemResourceAsStream(name + ".class")) {
            if (in == null) {
                return false;
            }
            ClassReader reader = new ClassReader(in);
            return applies(name, reader) || UnwatchedCallRewriter.applies(name, reader);
        } catch (java.io.IOException | RuntimeException e) {
            return false;
        }
    }

    @Override
    boolean brackets(String owner) {
        return quieted(owner, collectionsToo, orderedCollections) && !(HANDOFFS.contains(owner) && !schedulesVirtualThreads);
    }
}
