package dev.reprise.agent.ops.processes;

import java.io.IOException;
import java.lang.instrument.Instrumentation;
import java.lang.reflect.Method;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.jar.JarFile;

import dev.reprise.agent.ops.RecordingCopies;
import dev.reprise.agent.runtime.events.Divergence;
import dev.reprise.agent.runtime.events.Ev;
import dev.reprise.agent.runtime.events.Rt;

/**
 * Agents attached to the recorded JVM from outside, as a child the program started does to load
 * a Java agent into its parent (Byte Buddy's {@code installExternal}, under Mockito's inline mock
 * maker): the JVM's attach thread appends the agent's jar to the class path and calls its
 * {@code agentmain}, which hands the program an {@code Instrumentation}. A replay starts no child,
 * so Reprise loads the agent itself where the recording says the program saw that child's outcome
 * (an event of {@link RecordedProcess}, which the attach preceded): from the recording's copy of
 * the jar, with Reprise's own {@code Instrumentation}, on a thread that is not recorded, as the
 * attach thread was not.
 */
final class AttachedAgents {
    private static final String KIND = "agent";
    private static final String EXT = "jar";
    /** Record: the attaches not yet coded in a process event, each {copy, agent class, options, warning}. */
    private static final ConcurrentLinkedQueue<String[]> PENDING = new ConcurrentLinkedQueue<>();
    private static final String[] NONE = new String[0];
    /** The jar the JVM appended last for an agent; the attach thread then loads the agent's class. */
    private static volatile String appended;
    /** The warning the JVM printed for the attach under way, or "". */
    private static volatile String warning = "";
    private static volatile Instrumentation instrumentation;

    private AttachedAgents() {
    }

    /** Reprise's own {@code Instrumentation}, which a replayed agent gets. */
    static void configure(Instrumentation inst) {
        instrumentation = inst;
    }

    static void appended(String jar) {
        appended = jar;
        warning = "";
    }

    /**
     * Record, on the attach thread: the JVM prints its warning of a dynamic agent load (JDK 21+)
     * to stderr there, which no replay does. Its text, as the JDK composes it, goes with the
     * attach, and the replay prints it as it loads the agent.
     */
    static void warns() {
        String source = appended == null ? "" : appended;
        try {
            source = Path.of(source).toAbsolutePath().toString();
        } catch (InvalidPathException e) {
            // the JDK prints the path as given, too
        }
        String trace = System.getProperty("jdk.instrument.traceUsage");
        boolean tracing = trace != null && (trace.isEmpty() || Boolean.parseBoolean(trace));
        String nl = System.lineSeparator();
        warning = "WARNING: A Java agent has been loaded dynamically (" + source + ")" + nl
                + "WARNING: If a serviceability tool is in use, please run with -XX:+EnableDynamicAgentLoading to hide"
                + " this warning" + nl
                + (tracing ? "" : "WARNING: If a serviceability tool is not in use, please run with"
                        + " -Djdk.instrument.traceUsage for more information" + nl)
                + "WARNING: Dynamic loading of agents will be disallowed by default in a future release";
    }

    /** Record, on the attach thread: the agent's jar is copied into the recording before it runs. */
    static void attaching(String agentClass, String options) {
        String jar = appended;
        String copy;
        try {
            copy = jar == null ? "" : RecordingCopies.copy(jar, KIND, EXT);
        } catch (IOException e) {
            copy = "";
        }
        PENDING.add(new String[] {copy, agentClass, options, warning});
    }

    /**
     * Codes the attaches since the last process event: recording, those pending; replay, reads
     * them and returns them, four strings each, to {@link #load} once the event ends.
     */
    static String[] coded(Ev ev) {
        List<String> taken = new ArrayList<>();
        if (ev.recording()) {
            for (String[] a; (a = PENDING.poll()) != null;) {
                taken.addAll(List.of(a[0], a[1], a[2] == null ? "\0" : a[2], a[3]));
            }
        }
        int n = ev.i(taken.size());
        String[] agents = ev.recording() ? NONE : new String[n];
        for (int i = 0; i < n; i++) {
            String s = ev.s(ev.recording() ? taken.get(i) : null);
            if (!ev.recording()) {
                agents[i] = s;
            }
        }
        return agents;
    }

    /** Replay: loads the agents {@link #coded} gave, in their order, before the program goes on. */
    static void load(String[] agents) {
        if (agents.length == 0) {
            return;
        }
        Rt.suppress(); // Reprise's own work: starting the thread is no event
        try {
            Thread attach = new Thread(new Runnable() {
                @Override
                public void run() {
                    for (int i = 0; i < agents.length; i += 4) {
                        if (!agents[i + 3].isEmpty()) {
                            System.err.println(agents[i + 3]);
                        }
                        loadOne(agents[i], agents[i + 1], agents[i + 2].equals("\0") ? null : agents[i + 2]);
                    }
                }
            }, "Attach Listener");
            attach.setDaemon(true);
            attach.start();
            attach.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            Rt.unsuppress();
        }
    }

    /**
     * As the JDK's attach does: the jar on the system class path, then the agent class's
     * {@code agentmain(String, Instrumentation)}, or else {@code agentmain(String)}.
     */
    private static void loadOne(String copy, String agentClass, String options) {
        try {
            Instrumentation inst = instrumentation;
            if (!copy.isEmpty()) {
                inst.appendToSystemClassLoaderSearch(new JarFile(
                        RecordingCopies.checked(copy, KIND, EXT, "the jar of an agent attached to the program").toFile()));
            }
            Class<?> c = Class.forName(agentClass, true, ClassLoader.getSystemClassLoader());
            Method m;
            try {
                m = c.getDeclaredMethod("agentmain", String.class, Instrumentation.class);
                m.setAccessible(true);
                m.invoke(null, options, inst);
            } catch (NoSuchMethodException e) {
                m = c.getDeclaredMethod("agentmain", String.class);
                m.setAccessible(true);
                m.invoke(null, options);
            }
        } catch (Throwable t) {
            Divergence.message("warning: the agent " + agentClass + " attached to the recorded program failed to load on"
                    + " replay: " + t);
        }
    }
}
