package dev.reprise.agent;

import java.lang.instrument.ClassFileTransformer;
import java.lang.instrument.Instrumentation;
import java.nio.file.Path;
import java.security.ProtectionDomain;
import java.util.Enumeration;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

import dev.reprise.agent.instrument.Catalogue;
import dev.reprise.agent.instrument.CatalogueIndex;
import dev.reprise.agent.instrument.JdkAccess;
import dev.reprise.agent.instrument.LoadedClasses;
import dev.reprise.agent.instrument.OrderedFields;
import dev.reprise.agent.instrument.Transformer;
import dev.reprise.agent.instrument.cache.ClassCache;
import dev.reprise.agent.ops.Families;
import dev.reprise.agent.ops.classes.HiddenClassOps;
import dev.reprise.agent.ops.classes.ReflectedCalls;
import dev.reprise.agent.ops.classes.ReflectionOrder;
import dev.reprise.agent.ops.environment.OwnCommandLine;
import dev.reprise.agent.ops.environment.RedactedEnv;
import dev.reprise.agent.ops.processes.ProcessOps;
import dev.reprise.agent.ops.threads.MonitorOps;
import dev.reprise.agent.runtime.events.Divergence;
import dev.reprise.agent.runtime.events.Session;
import dev.reprise.agent.runtime.identity.IdentityHashes;
import dev.reprise.agent.runtime.identity.StartupHashes;
import dev.reprise.agent.runtime.ordering.RaceWatch;
import dev.reprise.agent.runtime.session.ExitHooks;
import dev.reprise.agent.runtime.session.Sessions;
import dev.reprise.core.config.AgentConfig;

/**
 * The java agent. Start-up order matters: the session and the main thread's identity exist
 * before any instrumented code can ask for them; instrumentation is in place before
 * interception is switched on; the program's {@code main} class is initialized only after
 * premain returns, so its static initializers are already recorded.
 */
public final class Agent {
    /** Exit status when the agent cannot start: the program does not run unrecorded. */
    private static final int EXIT_AGENT_FAILED = 70;

    private Agent() {
    }

    public static void premain(String args, Instrumentation inst) {
        try {
            Class<?>[] loadedFirst = inst.getAllLoadedClasses();
            StartupHashes.fix(Agent.class.getModule(), loadedFirst);
            if (Agent.class.getClassLoader() != null) {
                throw new IllegalStateException("the agent jar must be on the boot class path (-Xbootclasspath/a)");
            }
            AgentConfig config = AgentConfig.parse(args);
            Path agentJar = agentJar();
            CatalogueIndex hooks;
            try (ZipFile jar = new ZipFile(agentJar.toFile())) {
                preloadRuntime(jar);
                hooks = CatalogueIndex.of(jar);
            }
            preloadContended();
            JdkAccess.open(inst, Agent.class.getModule());
            Session session = Sessions.start(config, Thread.currentThread());
            Families.prepare();
            OrderedFields.configure(config.orderedFields());
            RaceWatch.configure(config.watchRaces(), config.orderedFields());
            RedactedEnv.configure(config.redactedEnv());
            OwnCommandLine.configure(args);
            ProcessOps.configure(inst);
            Catalogue catalogue = new Catalogue(hooks, MonitorOps.JDK_CLASSES);
            Transformer transformer = new Transformer(catalogue, ClassCache.open(config.classCache(), config.jdkClassCache(), agentJar));
            transformer.warmUp();
            HiddenClassOps.configure(transformer);
            ReflectedCalls.configure(catalogue);
            // Only the classes loaded before the agent are retransformed, in premain, once. A
            // retransforming transformer stays registered just for that: while one is, the JVM
            // keeps a copy of every class file it loads, for a retransformation to start from.
            ClassFileTransformer startup = new ClassFileTransformer() {
                @Override
                public byte[] transform(Module module, ClassLoader loader, String name, Class<?> redefined,
                                        ProtectionDomain domain, byte[] bytes) {
                    return redefined == null ? null : transformer.transform(module, loader, name, redefined, domain, bytes);
                }
            };
            try {
                LoadedClasses.instrument(inst, transformer, new Runnable() {
                    @Override
                    public void run() {
                        inst.addTransformer(transformer, false);
                        // The program's native methods keep their binding once wrapped (NativeMethodWrapper).
                        inst.setNativeMethodPrefix(transformer, Transformer.NATIVE_PREFIX);
                        inst.addTransformer(startup, true);
                    }
                });
            } finally {
                inst.removeTransformer(startup);
            }
            ReflectionOrder.forgetOrders(inst.getAllLoadedClasses());
            ExitHooks.install(session, new Runnable() {
                @Override
                public void run() {
                    transformer.saveForNextRun();
                }
            });
            IdentityHashes.keepClassHashes(loadedFirst);
            session.activate();
            String launched = System.getProperty("sun.java.command");
            Families.startSession(session);
            session.checkLaunch(launched);
        } catch (Throwable t) {
            StringBuilder why = new StringBuilder(t.toString());
            for (Throwable c = t.getCause(); c != null; c = c.getCause()) {
                why.append("; caused by ").append(c);
            }
            Divergence.message("cannot start the agent: " + why);
            Runtime.getRuntime().halt(EXIT_AGENT_FAILED);
        }
    }

    /**
     * Loads Reprise's own classes before the transformer is installed. Instrumented JDK code calls
     * into them; loading one of them for the first time from inside a transformation of another
     * class would be circular.
     */
    private static void preloadRuntime(ZipFile jar) throws Exception {
        for (Enumeration<? extends ZipEntry> e = jar.entries(); e.hasMoreElements(); ) {
            String name = e.nextElement().getName();
            if (name.startsWith("dev/reprise/") && name.endsWith(".class") && !name.contains("/shaded/asm/")) {
                Class.forName(name.substring(0, name.length() - 6).replace('/', '.'), false, null);
            }
        }
    }

    /**
     * Loads, without initializing them, the JDK classes a contended update of a
     * {@code ConcurrentHashMap} first needs: its counter cells and the thread's probe. Reprise's
     * own tables are such maps, updated inside transformations. First loaded under the
     * transformer, by contention inside the transformation of one of these very classes, they
     * would need themselves: a {@code ClassCircularityError}, and a JDK class that fails to
     * instrument stops the JVM (seen once, on {@code ThreadLocalRandom}, with a busy machine).
     * Loaded here, start-up instruments them with the other loaded classes.
     */
    private static void preloadContended() throws ClassNotFoundException {
        for (String name : new String[] {"java.util.concurrent.ThreadLocalRandom", "java.util.concurrent.ConcurrentHashMap$CounterCell"}) {
            Class.forName(name, false, null);
        }
    }

    /** The jar this class was loaded from. */
    private static Path agentJar() {
        String self = Agent.class.getName().replace('.', '/') + ".class";
        java.net.URL url = ClassLoader.getSystemResource(self);
        return Path.of(java.net.URLDecoder.decode(url.getPath().substring("file:".length(), url.getPath().indexOf('!')),
                java.nio.charset.StandardCharsets.UTF_8));
    }
}
