package dev.reprise.agent.ops.processes;

import java.io.PrintStream;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodType;
import java.util.Map;
import java.util.Optional;

import dev.reprise.agent.ops.Prologue;
import dev.reprise.agent.runtime.events.Digest;
import dev.reprise.agent.runtime.events.Ev;
import dev.reprise.agent.runtime.events.Op;
import dev.reprise.agent.runtime.events.Session;
import dev.reprise.agent.runtime.jdk.JdkMethods;

/**
 * Child processes. Every process, by {@code ProcessBuilder} or {@code Runtime.exec}, is started
 * by {@code java.lang.ProcessImpl.start} (JDK 17 and 25): its event records the outcome (the pid,
 * or the exception), and the program gets a {@link RecordedProcess}, through which all it learns
 * of the child is an event of its own threads. Recording runs the child; a replay never does. A
 * child's stdout or stderr that the program let it inherit is piped while recording and copied
 * to the console by a recorded thread ({@link ConsoleCopier}), so its bytes are in the recording
 * and replayed in place. A handle looked up by pid ({@code ProcessHandle.of}) is recorded the
 * same way ({@link RecordedHandle}). Agents that a child attaches to this JVM are
 * {@link AttachedAgents}.
 */
public final class ProcessOps {
    private static final Op START = Op.named("process.start");
    private static final Op LOOKUP = Op.named("process.handle.of");
    private static final String BUILDER_REDIRECTS = "[Ljava/lang/ProcessBuilder$Redirect;";
    private static final MethodHandle START_LIVE = JdkMethods.statik(JdkMethods.jdkClass("java.lang.ProcessImpl"), "start",
            MethodType.methodType(Process.class, String[].class, Map.class, String.class, ProcessBuilder.Redirect[].class,
                    boolean.class));
    private static final MethodHandle LOOKUP_LIVE = JdkMethods.statik(JdkMethods.jdkClass("java.lang.ProcessHandleImpl"),
            "get", MethodType.methodType(Optional.class, long.class));
    /** The JVM's own stdout and stderr streams, taken before the program may replace them. */
    static final PrintStream CONSOLE_OUT = System.out;
    static final PrintStream CONSOLE_ERR = System.err;

    static {
        // The classes the family's hooks hand out register their operations as they initialize:
        // with the family, before instrumentation starts (Families.prepare).
        for (Class<?> c : new Class<?>[] {RecordedProcess.class, RecordedHandle.class, ChildOutput.class, ChildInput.class}) {
            try {
                Class.forName(c.getName(), true, null);
            } catch (ClassNotFoundException e) {
                throw new IllegalStateException(e);
            }
        }
    }

    private ProcessOps() {
    }

    /** Reprise's own {@code Instrumentation}, which a replay gives the agents it loads. */
    public static void configure(java.lang.instrument.Instrumentation inst) {
        AttachedAgents.configure(inst);
    }

    @Prologue(owner = "java/lang/ProcessImpl", method = "start",
            desc = "([Ljava/lang/String;Ljava/util/Map;Ljava/lang/String;" + BUILDER_REDIRECTS + "Z)Ljava/lang/Process;")
    public static Process start(String[] command, Map<String, String> environment, String dir,
            ProcessBuilder.Redirect[] redirects, boolean redirectErrorStream) throws Throwable {
        boolean inheritOut = inherits(redirects, 1);
        boolean inheritErr = !redirectErrorStream && inherits(redirects, 2);
        RecordedProcess process;
        Ev ev = Ev.begin(START, 0, Digest.of(String.join("\0", command)));
        try {
            Process live = null;
            if (ev.live()) {
                live = (Process) START_LIVE.invokeExact(command, environment, dir, piped(redirects, inheritOut, inheritErr),
                        redirectErrorStream);
            }
            process = new RecordedProcess(live, ev.j(live == null ? 0 : live.pid()), inheritOut, inheritErr);
        } catch (Throwable t) {
            throw ev.threw(t);
        } finally {
            ev.end();
        }
        process.startCopiers();
        return process;
    }

    private static boolean inherits(ProcessBuilder.Redirect[] redirects, int stream) {
        return redirects != null && redirects[stream] == ProcessBuilder.Redirect.INHERIT;
    }

    /** The redirects with the inherited outputs piped instead; a copy: the array is the builder's. */
    private static ProcessBuilder.Redirect[] piped(ProcessBuilder.Redirect[] redirects, boolean out, boolean err) {
        if (!out && !err) {
            return redirects;
        }
        ProcessBuilder.Redirect[] piped = redirects.clone();
        if (out) {
            piped[1] = ProcessBuilder.Redirect.PIPE;
        }
        if (err) {
            piped[2] = ProcessBuilder.Redirect.PIPE;
        }
        return piped;
    }

    /** {@code ProcessHandle.of(pid)}: whether the process existed, and its handle. */
    @Prologue(owner = "java/lang/ProcessHandleImpl", method = "get", desc = "(J)Ljava/util/Optional;")
    public static Optional<ProcessHandle> lookup(long pid) throws Throwable {
        Ev ev = Ev.begin(LOOKUP, 0, Long.hashCode(pid));
        @SuppressWarnings("unchecked")
        Optional<ProcessHandle> live = ev.live() ? (Optional<ProcessHandle>) LOOKUP_LIVE.invokeExact(pid) : null;
        if (!ev.z(live != null && live.isPresent())) {
            return Optional.empty();
        }
        return Optional.of(new RecordedHandle(live == null ? null : live.get(), pid));
    }

    /** The JVM appends an attached agent's jar to the class path before loading the agent. */
    @Prologue(owner = "jdk/internal/loader/ClassLoaders$AppClassLoader", method = "appendToClassPathForInstrumentation",
            desc = "(Ljava/lang/String;)V", kind = Prologue.Kind.ANY_THREAD)
    public static void appending(Object loader, String jar) {
        AttachedAgents.appended(jar);
    }

    /**
     * JDK 21+: the JVM makes an attached agent's {@code Instrumentation}, which warns on stderr of
     * the dynamic load unless the command line allowed it.
     */
    @Prologue(owner = "sun/instrument/InstrumentationImpl", method = "<init>", desc = "(JZZZ)V",
            kind = Prologue.Kind.ANY_THREAD, optional = true)
    public static void instrumenting(long agent, boolean redefine, boolean nativePrefix, boolean warns) {
        if (warns && !Session.current().replaying()) {
            AttachedAgents.warns();
        }
    }

    /** The JVM's attach thread loads an agent into this JVM. */
    @Prologue(owner = "sun/instrument/InstrumentationImpl", method = "loadClassAndCallAgentmain",
            desc = "(Ljava/lang/String;Ljava/lang/String;)V", kind = Prologue.Kind.ANY_THREAD)
    public static void attaching(Object instrumentation, String agentClass, String options) {
        if (!Session.current().replaying()) {
            AttachedAgents.attaching(agentClass, options);
        }
    }
}
