package dev.reprise.tests;

import static dev.reprise.tests.Reprise.corpus;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import com.sun.jdi.Bootstrap;
import com.sun.jdi.VirtualMachine;
import com.sun.jdi.connect.AttachingConnector;
import com.sun.jdi.connect.Connector;
import com.sun.jdi.connect.IllegalConnectorArgumentsException;
import com.sun.jdi.event.Event;
import com.sun.jdi.event.EventSet;
import com.sun.jdi.event.VMDisconnectEvent;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code replay --debug=PORT} starts the replay suspended with a JDWP port. The debugger agent's
 * own threads are not the program's: a debugger attaches, resumes, and the replay runs to the
 * recorded end with the recorded output.
 */
class DebuggerTest {
    private static final long ATTACH_SECONDS = 60;

    @TempDir
    Path tmp;

    @Test
    void replayUnderADebuggerRunsAsRecorded() throws Exception {
        for (String main : new String[] {"corpus.single.Clocks", "corpus.threads.Monitors"}) {
            Path rec = tmp.resolve(main);
            Run recorded = Reprise.record(rec, corpus(main));
            assertEquals(0, recorded.status(), recorded::toString);

            Run replayed = replayAttached(rec, freePort());
            assertEquals(recorded.stdout(), replayed.stdout(), replayed::toString);
            assertEquals(recorded.programStderr(), replayed.programStderr(), replayed::toString);
            assertEquals(recorded.status(), replayed.status(), replayed::toString);
            assertTrue(replayed.stderr().contains("reprise: waiting for a debugger on port"), replayed::toString);
        }
    }

    /** Starts {@code replay --debug=PORT}, attaches a JDI client, resumes the program and waits for the replay to end. */
    private static Run replayAttached(Path rec, int port) throws Exception {
        Process p = new ProcessBuilder(Reprise.repriseCommand(List.of("replay", rec.toString(), "--debug=" + port))).start();
        p.getOutputStream().close();
        CompletableFuture<byte[]> out = Reprise.drain(p.getInputStream());
        CompletableFuture<byte[]> err = Reprise.drain(p.getErrorStream());
        try {
            VirtualMachine vm = attach(port, p);
            vm.resume();
            runToDisconnect(vm);
            assertTrue(p.waitFor(120, TimeUnit.SECONDS), "the replay ends once resumed");
        } finally {
            p.destroyForcibly();
        }
        return new Run(p.exitValue(), new String(out.get(), StandardCharsets.UTF_8), new String(err.get(), StandardCharsets.UTF_8));
    }

    /** Resumes every event set the debugger is sent, as a debugger without breakpoints does, until the JVM is gone. */
    private static void runToDisconnect(VirtualMachine vm) throws InterruptedException {
        while (true) {
            EventSet events = vm.eventQueue().remove(TimeUnit.SECONDS.toMillis(120));
            if (events == null) {
                throw new AssertionError("the replay under the debugger did not end");
            }
            for (Event e : events) {
                if (e instanceof VMDisconnectEvent) {
                    return;
                }
            }
            events.resume();
        }
    }

    /** Attaches over the socket transport, retrying while the replay's JVM starts. */
    private static VirtualMachine attach(int port, Process replay) throws Exception {
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

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }
}
