package dev.reprise.agent;

import java.lang.instrument.Instrumentation;
import java.util.ArrayList;
import java.util.List;

import dev.reprise.agent.instrument.Catalogue;
import dev.reprise.agent.instrument.QuietCallRewriter;
import dev.reprise.agent.instrument.JdkAccess;
import dev.reprise.agent.instrument.Transformer;
import dev.reprise.agent.ops.Families;
import dev.reprise.agent.ops.MonitorOps;
import dev.reprise.agent.ops.ReflectionOrder;
import dev.reprise.core.config.AgentConfig;
import dev.reprise.agent.runtime.Divergence;
import dev.reprise.agent.runtime.ExitHooks;
import dev.reprise.agent.runtime.IdentityHashes;
import dev.reprise.agent.runtime.Session;

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
            if (Agent.class.getClassLoader() != null) {
                throw new IllegalStateException("the agent jar must be on the boot class path (-Xbootclasspath/a)");
            }
            AgentConfig config = AgentConfig.parse(args);
            preloadRuntime();
            JdkAccess.open(inst, Agent.class.getModule());
            Session session = Session.start(config, Thread.currentThread());
            Families.prepare();
            Catalogue catalogue = new Catalogue(Families.ALL, MonitorOps.JDK_CLASSES);
            inst.addTransformer(new Transformer(catalogue), true);
            retransformLoaded(inst, catalogue);
            ReflectionOrder.forgetOrders(inst.getAllLoadedClasses());
            ExitHooks.install(session::finish);
            IdentityHashes.keepClassHashes(inst.getAllLoadedClasses());
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
    private static void preloadRuntime() throws Exception {
        String self = Agent.class.getName().replace('.', '/') + ".class";
        java.net.URL url = ClassLoader.getSystemResource(self);
        String jar = java.net.URLDecoder.decode(url.getPath().substring("file:".length(), url.getPath().indexOf('!')),
                java.nio.charset.StandardCharsets.UTF_8);
        try (java.util.jar.JarFile jf = new java.util.jar.JarFile(jar)) {
            for (java.util.Enumeration<java.util.jar.JarEntry> e = jf.entries(); e.hasMoreElements(); ) {
                String name = e.nextElement().getName();
                if (name.startsWith("dev/reprise/") && name.endsWith(".class") && !name.contains("/shaded/asm/")) {
                    Class.forName(name.substring(0, name.length() - 6).replace('/', '.'), false, null);
                }
            }
        }
    }

    private static void retransformLoaded(Instrumentation inst, Catalogue catalogue) throws Exception {
        List<Class<?>> targets = new ArrayList<>();
        for (Class<?> c : inst.getAllLoadedClasses()) {
            if ((catalogue.changesJdkClass(c.getName().replace('.', '/')) || QuietCallRewriter.appliesToLoaded(c))
                    && inst.isModifiableClass(c)) {
                targets.add(c);
            }
        }
        inst.retransformClasses(targets.toArray(new Class<?>[0]));
    }
}
