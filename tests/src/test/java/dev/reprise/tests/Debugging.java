package dev.reprise.tests;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import com.sun.jdi.Bootstrap;
import com.sun.jdi.Location;
import com.sun.jdi.ReferenceType;
import com.sun.jdi.ThreadReference;
import com.sun.jdi.VirtualMachine;
import com.sun.jdi.connect.AttachingConnector;
import com.sun.jdi.connect.Connector;
import com.sun.jdi.connect.IllegalConnectorArgumentsException;
import com.sun.jdi.event.ClassPrepareEvent;
import com.sun.jdi.event.Event;
import com.sun.jdi.event.EventSet;
import com.sun.jdi.event.VMDisconnectEvent;
import com.sun.jdi.event.VMStartEvent;
import com.sun.jdi.request.BreakpointRequest;
import com.sun.jdi.request.ClassPrepareRequest;
import com.sun.jdi.request.StepRequest;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A replay under {@code reprise replay --debug}, and the JDI client attached to it as an IDE
 * attaches: what DebuggerTest and GoingBackTest drive. Breakpoints go on the lines of a corpus
 * program's source marked with a text, such as {@code debugger: step here}.
 */
final class Debugging implements AutoCloseable {
    static final long ATTACH_SECONDS = 60;
    static final long EVENT_SECONDS = 120;

    final Process process;
    final VirtualMachine vm;
    /** The debugger port the replay listens on. */
    final int port;
    final CompletableFuture<byte[]> out;
    final CompletableFuture<byte[]> err;

    private Debugging(Process process, VirtualMachine vm, int port, CompletableFuture<byte[]> out, CompletableFuture<byte[]> err) {
        this.process = process;
        this.vm = vm;
        this.port = port;
        this.out = out;
        this.err = err;
    }

    static Debugging start(Path rec, String... options) throws Exception {
        int port = freePort();
        List<String> args = new ArrayList<>(List.of("replay", rec.toString(), "--debug=" + port));
        args.addAll(List.of(options));
        Process p = new ProcessBuilder(Reprise.repriseCommand(args)).start();
        p.getOutputStream().close();
        CompletableFuture<byte[]> out = Reprise.drain(p.getInputStream());
        CompletableFuture<byte[]> err = Reprise.drain(p.getErrorStream());
        try {
            return new Debugging(p, attach(port, p), port, out, err);
        } catch (Throwable t) {
            p.destroyForcibly();
            throw t;
        }
    }

    /** Asks for {@code name}'s preparation, lets the JVM run from its start, and returns the class once prepared. */
    ReferenceType prepared(String name) throws Exception {
        ClassPrepareRequest r = vm.eventRequestManager().createClassPrepareRequest();
        r.addClassFilter(name);
        r.enable();
        next(VMStartEvent.class);
        vm.resume();
        ReferenceType type = next(ClassPrepareEvent.class).referenceType();
        r.disable();
        return type;
    }

    /** A breakpoint on the line of {@code type}'s source marked {@code marker}, enabled, and the JVM resumed. */
    BreakpointRequest breakpoint(ReferenceType type, String marker, int suspendPolicy) throws Exception {
        Location at = type.locationsOfLine(lineOf(type.name(), marker)).get(0);
        BreakpointRequest bp = vm.eventRequestManager().createBreakpointRequest(at);
        bp.setSuspendPolicy(suspendPolicy);
        bp.enable();
        vm.resume();
        return bp;
    }

    /** One step of {@code depth} by line, skipping the JDK's classes as an IDE's default step filters do; resumes. */
    void step(ThreadReference t, int depth) {
        vm.eventRequestManager().deleteEventRequests(vm.eventRequestManager().stepRequests());
        StepRequest s = vm.eventRequestManager().createStepRequest(t, StepRequest.STEP_LINE, depth);
        for (String jdk : new String[] {"java.*", "javax.*", "jdk.*", "sun.*"}) {
            s.addClassExclusionFilter(jdk);
        }
        s.addCountFilter(1);
        s.enable();
        vm.resume();
    }

    /** The next event of {@code kind}; an event set of another kind is a failure. */
    <E extends Event> E next(Class<E> kind) throws InterruptedException {
        EventSet set = vm.eventQueue().remove(TimeUnit.SECONDS.toMillis(EVENT_SECONDS));
        if (set == null) {
            throw new AssertionError("no " + kind.getSimpleName() + " within " + EVENT_SECONDS + " s");
        }
        for (Event e : set) {
            if (kind.isInstance(e)) {
                return kind.cast(e);
            }
        }
        throw new AssertionError("expected a " + kind.getSimpleName() + ", got " + set);
    }

    /** Ends the replay and its JVM, whatever state a failed assertion left them in. */
    @Override
    public void close() {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
    }

    ThreadReference thread(String name) {
        return vm.allThreads().stream().filter(t -> t.name().equals(name)).findFirst()
                .orElseThrow(() -> new AssertionError("no thread " + name));
    }

    /** Resumes every event set the debugger is sent, until the JVM is gone; the replay's run. */
    Run finish() throws Exception {
        try {
            while (true) {
                EventSet events = vm.eventQueue().remove(TimeUnit.SECONDS.toMillis(EVENT_SECONDS));
                if (events == null) {
                    throw new AssertionError("the replay under the debugger did not end");
                }
                if (events.stream().anyMatch(e -> e instanceof VMDisconnectEvent)) {
                    break;
                }
                events.resume();
            }
            assertTrue(process.waitFor(EVENT_SECONDS, TimeUnit.SECONDS), "the replay ends once resumed");
        } finally {
            close();
        }
        return new Run(process.exitValue(), new String(out.get(), StandardCharsets.UTF_8),
                new String(err.get(), StandardCharsets.UTF_8));
    }

    /** Attaches over the socket transport, retrying while the replay's JVM starts. */
    static VirtualMachine attach(int port, Process replay) throws Exception {
        AttachingConnector socket = Bootstrap.virtualMachineManager().attachingConnectors().stream()
                .filter(c -> c.transport().name().equals("dt_socket")).findFirst().orElseThrow();
        Map<String, Connector.Argument> args = socket.defaultArguments();
        args.get("hostname").setValue("127.0.0.1");
        args.get("port").setValue(Integer.toString(port));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(ATTACH_SECONDS);
        while (true) {
            try {
                return socket.attach(args);
            } catch (IOException e) {
                if (!replay.isAlive() || System.nanoTime() > deadline) {
                    throw new AssertionError("no debugger port " + port + " (replay alive: " + replay.isAlive() + ")", e);
                }
                Thread.sleep(200);
            } catch (IllegalConnectorArgumentsException e) {
                throw new AssertionError(e);
            }
        }
    }

    static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    /** The line of the corpus program {@code className}'s source that holds {@code text}. */
    static int lineOf(String className, String text) throws IOException {
        Path source = Reprise.ROOT.resolve("corpus/src/main/java/" + className.replace('.', '/') + ".java");
        List<String> lines = Files.readAllLines(source);
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).contains(text)) {
                return i + 1;
            }
        }
        throw new AssertionError("no line with " + text + " in " + source);
    }

    /**
     * The replays a test class started under a debugger, each ended after its test whether it
     * passed or not, its stderr shown for a failure's diagnosis: register with
     * {@code @RegisterExtension}.
     */
    static final class Sessions implements AfterEachCallback {
        private final List<Debugging> opened = new ArrayList<>();

        /** {@link Debugging#start}, ended after the test. */
        Debugging start(Path rec, String... options) throws Exception {
            Debugging d = Debugging.start(rec, options);
            opened.add(d);
            return d;
        }

        @Override
        public void afterEach(ExtensionContext context) throws Exception {
            for (Debugging d : opened) {
                d.close();
                System.err.println("replay's stderr: " + new String(d.err.get(), StandardCharsets.UTF_8));
            }
            opened.clear();
        }
    }
}
