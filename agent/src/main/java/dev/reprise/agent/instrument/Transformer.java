package dev.reprise.agent.instrument;

import java.lang.instrument.ClassFileTransformer;
import java.security.ProtectionDomain;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.ClassWriter;

import dev.reprise.agent.runtime.Divergence;

/**
 * Applies the catalogue to classes as they load or are retransformed: prologues to hooked JDK
 * methods, call-site rewrites to application classes and to the JDK classes the catalogue names.
 * A JDK class that fails to instrument stops the JVM: a recording with a hole is worse than none.
 */
public final class Transformer implements ClassFileTransformer {
    private static final String[] JDK_PREFIXES = {"java/", "javax/", "jdk/", "sun/", "com/sun/", "dev/reprise/"};

    private final Catalogue catalogue;
    private final Set<String> prologueMisses = ConcurrentHashMap.newKeySet();

    public Transformer(Catalogue catalogue) {
        this.catalogue = catalogue;
    }

    @Override
    public byte[] transform(Module module, ClassLoader loader, String name, Class<?> redefined,
                            ProtectionDomain domain, byte[] bytes) {
        if (name == null || name.startsWith("dev/reprise/")) {
            return null;
        }
        List<Catalogue.PrologueHook> prologues = catalogue.prologuesOf(name);
        boolean app = isApplicationClass(name, loader);
        boolean sites = app || catalogue.rewritesSitesIn(name);
        boolean monitors = app || catalogue.ordersMonitorsIn(name);
        boolean orderedMethods = catalogue.ordersMethodsIn(name);
        if (prologues.isEmpty() && !sites && !monitors && !orderedMethods) {
            return null;
        }
        try {
            return instrument(name, bytes, prologues, sites, monitors, orderedMethods, redefined == null);
        } catch (Throwable t) {
            Divergence.message("cannot instrument " + name.replace('/', '.') + ": " + t);
            if (!isApplicationClass(name, loader)) {
                Runtime.getRuntime().halt(70);
            }
            return null;
        }
    }

    private byte[] instrument(String name, byte[] bytes, List<Catalogue.PrologueHook> prologues, boolean sites,
                              boolean monitors, boolean orderedMethods, boolean firstLoad) {
        ClassReader reader = new ClassReader(bytes);
        // No COMPUTE_MAXS: each pass raises the stack size by what it adds, which spares a data-flow
        // analysis of every method (most of the cost of instrumenting the JDK at start-up).
        ClassWriter writer = new ClassWriter(reader, 0);
        List<Catalogue.PrologueHook> applied = new ArrayList<>();
        ClassVisitor chain = writer;
        if (!prologues.isEmpty()) {
            chain = new PrologueInserter(chain, prologues, applied);
        }
        if (sites) {
            chain = new CallSiteRewriter(chain, catalogue);
        }
        if (monitors) {
            chain = new MonitorRewriter(chain, firstLoad);
        }
        if (orderedMethods) {
            chain = new OrderedMethodRewriter(chain, dev.reprise.agent.ops.AtomicOps.METHODS);
        }
        reader.accept(chain, 0);
        for (Catalogue.PrologueHook h : prologues) {
            if (!applied.contains(h) && !h.optional() && prologueMisses.add(h.owner() + h.method() + h.desc())) {
                throw new IllegalStateException("hooked method " + h.method() + h.desc() + " not found");
            }
        }
        return writer.toByteArray();
    }

    private static boolean isApplicationClass(String name, ClassLoader loader) {
        if (loader == null || loader == ClassLoader.getPlatformClassLoader()) {
            return false;
        }
        for (String p : JDK_PREFIXES) {
            if (name.startsWith(p)) {
                return false;
            }
        }
        return true;
    }
}
