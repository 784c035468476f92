package dev.reprise.agent.instrument;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.reprise.agent.ops.CallSite;
import dev.reprise.agent.ops.Constructed;
import dev.reprise.agent.ops.Prologue;

/**
 * Every intercepted operation, as the {@link Prologue}, {@link CallSite} and {@link Constructed}
 * annotations of the hook classes declare it ({@link CatalogueIndex} reads them when the agent is
 * built). The instrumentation passes consult it; nothing else lists operations.
 */
public final class Catalogue {
    /** A prologue to add: target method, and the static hook it calls. */
    public record PrologueHook(String owner, String method, String desc, boolean optional, Prologue.Kind kind,
                               String hookOwner, String hookName, String hookDesc) {
    }

    /**
     * A call to rewrite into a call to a static hook; {@code packages} are the JDK packages (internal
     * names ending in {@code /}, subpackages included) in whose every class this hook alone applies.
     */
    public record SiteHook(CallSite.Kind kind, String owner, String method, String desc, boolean programOnly,
                           boolean inherited, List<String> packages, String hookOwner, String hookName, String hookDesc) {
        boolean appliesIn(String internalName) {
            for (String p : packages) {
                if (internalName.startsWith(p)) {
                    return true;
                }
            }
            return false;
        }
    }

    /** A call to add to a JDK constructor, after its superclass constructor ({@link Constructed}). */
    public record ConstructedHook(String owner, String desc, String hookOwner, String hookName, String hookDesc) {
    }

    private final Map<String, List<PrologueHook>> prologues = new HashMap<>();
    private final Map<String, List<ConstructedHook>> constructed = new HashMap<>();
    private final Map<String, List<SiteHook>> sitesByMethod = new HashMap<>();
    /** The {@link CallSite#inherited} hooks by the JDK class they name. */
    private final Map<String, List<SiteHook>> inheritedByOwner = new HashMap<>();
    private final Set<String> siteClasses;
    /** The hooks that apply in whole JDK packages. */
    private final List<SiteHook> packageHooks = new ArrayList<>();
    private final Set<String> monitorClasses;

    /**
     * @param index          the hooks, as {@link CatalogueIndex} read them
     * @param monitorClasses JDK classes whose monitor acquisitions are ordered events
     */
    public Catalogue(CatalogueIndex index, Set<String> monitorClasses) {
        this.monitorClasses = Set.copyOf(monitorClasses);
        this.siteClasses = Set.copyOf(index.siteClasses());
        for (PrologueHook p : index.prologues()) {
            add(prologues, p.owner(), p);
        }
        for (ConstructedHook c : index.constructed()) {
            add(constructed, c.owner(), c);
        }
        for (SiteHook h : index.sites()) {
            add(sitesByMethod, h.method(), h);
            if (!h.packages().isEmpty()) {
                packageHooks.add(h);
            }
            if (h.inherited()) {
                add(inheritedByOwner, h.owner(), h);
            }
        }
    }

    /** Not {@code computeIfAbsent}: a lambda here would spin a class in every start-up. */
    private static <T> void add(Map<String, List<T>> map, String key, T value) {
        List<T> list = map.get(key);
        if (list == null) {
            list = new ArrayList<>();
            map.put(key, list);
        }
        list.add(value);
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
     * The hook a call of {@code owner.name desc} reached through reflection or a method handle
     * stands for: a {@link CallSite.Kind#STATIC} hook of that method, or a
     * {@link CallSite.Kind#VIRTUAL} one of it or of any class's method of that name; else null.
     */
    public SiteHook reflectedHook(boolean isStatic, String owner, String name, String desc) {
        for (SiteHook h : siteHooks(name)) {
            boolean kind = isStatic ? h.kind() == CallSite.Kind.STATIC : h.kind() == CallSite.Kind.VIRTUAL;
            if (kind && h.desc().equals(desc) && (h.owner().equals(owner) || !isStatic && h.owner().equals("*"))) {
                return h;
            }
        }
        return null;
    }

    /** The {@link CallSite#inherited} hooks whose owner is the JDK class {@code internalName}. */
    public List<SiteHook> inheritedHooksOf(String internalName) {
        return inheritedByOwner.getOrDefault(internalName, List.of());
    }

    private static final String WEAK_HASH_MAP = "java/util/WeakHashMap";

    /**
     * JDK libraries the program runs as it runs its own: their threads are the program's, and
     * which operations they make depends on the order of their synchronization (a web server's
     * dispatcher and its pool, an HTTP client's selector thread and its futures, a socket closed
     * on one thread while another asks whether it is open, which pool thread of an asynchronous
     * channel group polls and which runs a completion handler, which thread's TLS engine wraps or
     * unwraps first, which thread finds another's host-name lookup in {@code InetAddress}'s caches
     * and which asks the system itself, when the watch service's poller hands a registration back to the
     * thread that asked for it or signals a key). Every hook applies in them as in the program's classes:
     * the clocks too, which TLS reads for the session ticket a server encrypts and sends. The JDK's own work never calls them,
     * but for the channel classes, whose JDK callers are quiet ({@code QuietCallRewriter}).
     */
    private static final String[] LIBRARIES = {"sun/net/httpserver/", "com/sun/net/httpserver/", "jdk/internal/net/http/",
        "sun/net/www/http/", "sun/net/www/protocol/http/",
        "java/nio/channels/spi/AbstractInterruptibleChannel", "java/nio/channels/spi/AbstractSelectableChannel",
        "java/nio/channels/spi/AbstractSelector", "java/nio/channels/spi/AbstractSelectionKey",
        "java/nio/channels/SelectionKey", "java/net/InetAddress", "java/net/Socket", "java/net/ServerSocket", "java/net/DatagramSocket",
        "sun/nio/ch/SocketChannelImpl", "sun/nio/ch/ServerSocketChannelImpl", "sun/nio/ch/DatagramChannelImpl",
        "sun/nio/ch/NioSocketImpl", "sun/nio/ch/SocketAdaptor", "sun/nio/ch/ServerSocketAdaptor",
        "sun/nio/ch/DatagramSocketAdaptor", "sun/nio/ch/SelectorImpl", "sun/nio/ch/EPollSelectorImpl",
        "sun/nio/ch/PollSelectorImpl", "sun/nio/ch/SelectionKeyImpl",
        "java/nio/channels/AsynchronousChannelGroup", "java/nio/channels/AsynchronousSocketChannel",
        "java/nio/channels/AsynchronousServerSocketChannel", "sun/nio/ch/AsynchronousChannelGroupImpl",
        "sun/nio/ch/AsynchronousSocketChannelImpl", "sun/nio/ch/AsynchronousServerSocketChannelImpl",
        "sun/nio/ch/UnixAsynchronousSocketChannelImpl", "sun/nio/ch/UnixAsynchronousServerSocketChannelImpl",
        "sun/nio/ch/EPollPort", "sun/nio/ch/Port", "sun/nio/ch/Invoker", "sun/nio/ch/PendingFuture",
        "sun/nio/ch/CompletedFuture", "sun/nio/ch/ThreadPool", "sun/security/ssl/",
        "sun/nio/fs/LinuxWatchService", "sun/nio/fs/AbstractWatchService", "sun/nio/fs/AbstractWatchKey",
        "sun/nio/fs/AbstractPoller"};

    /**
     * JDK classes whose synchronization actions (volatile and atomic accesses) are ordered, as in
     * application classes: those of {@code java.util.concurrent} and of parallel streams, the
     * {@link #LIBRARIES}, and {@code BufferedInputStream}, which one thread may close, by a
     * compare-and-set of its buffer and no lock, while another reads it: whether the reader
     * finds it closed is then the order of those actions (a server stopping while a pool thread
     * reads a request). And the flag of a module's native access (JDK 22+), whose first
     * compare-and-set decides which thread prints the JDK's warning about a restricted method
     * ({@code System.loadLibrary}, the foreign linker), naming its own method and caller.
     */
    public static boolean ordersSyncActionsIn(String internalName) {
        return internalName.startsWith("java/util/concurrent/") || internalName.startsWith("java/util/stream/")
                || isLibrary(internalName) || internalName.equals("java/io/BufferedInputStream")
                || internalName.equals("java/lang/Module$EnableNativeAccess");
    }

    /** Whether {@code internalName} is a class of one of the {@link #LIBRARIES}. */
    public static boolean isLibrary(String internalName) {
        for (String library : LIBRARIES) {
            if (internalName.startsWith(library)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether {@code internalName} is the JDK's weak-keyed map or one of its inner classes. Its
     * entries are references to the program's objects, which the collector clears at moments that
     * differ between runs: its reads of them and polls of its queue are the program's own, as its
     * size and what it iterates depend on them ({@code ReferenceOps}).
     */
    public static boolean holdsProgramReferences(String internalName) {
        return internalName.equals(WEAK_HASH_MAP) || internalName.startsWith(WEAK_HASH_MAP + "$");
    }

    /** Whether the program's own hooks rewrite the calls in {@code internalName}, a JDK class, as in its classes. */
    public static boolean runsAsProgram(String internalName) {
        return isLibrary(internalName) || holdsProgramReferences(internalName);
    }

    /** JDK classes whose calls every hook rewrites: those named by hooks, and those whose synchronization is ordered. */
    public boolean rewritesAllSitesIn(String internalName) {
        return siteClasses.contains(internalName) || ordersSyncActionsIn(internalName) || holdsProgramReferences(internalName);
    }

    /** JDK classes whose calls are rewritten: those of {@link #rewritesAllSitesIn}, and those of a hook's packages. */
    public boolean rewritesSitesIn(String internalName) {
        if (rewritesAllSitesIn(internalName)) {
            return true;
        }
        for (SiteHook h : packageHooks) {
            if (h.appliesIn(internalName)) {
                return true;
            }
        }
        return false;
    }

    public boolean ordersMonitorsIn(String internalName) {
        return monitorClasses.contains(internalName);
    }

    /** Whether the catalogue changes a JDK class: retransformed at start-up if already loaded. */
    public boolean changesJdkClass(String internalName) {
        return rewritesSitesIn(internalName) || prologues.containsKey(internalName)
                || constructed.containsKey(internalName) || monitorClasses.contains(internalName) || ordersSyncActionsIn(internalName)
                || OrderedFields.declaredIn(internalName)
                || dev.reprise.agent.runtime.ordering.RaceWatch.on() && RaceWatchRewriter.watchesJdk(internalName)
                || dev.reprise.agent.ops.JdkInternals.hasUnloggedMethods(internalName);
    }
}
