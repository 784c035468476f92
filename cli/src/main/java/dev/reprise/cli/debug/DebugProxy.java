package dev.reprise.cli.debug;

import static dev.reprise.cli.debug.Jdwp.*;

import java.io.Closeable;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.function.Consumer;

/**
 * Stands between the user's debugger and the replay's JVM, forwarding JDWP both ways, so that
 * debugging does not change the replay. The JVM's JDWP agent connects to the proxy as its
 * debugger ({@code server=n}, suspended at start); the user's debugger connects to the proxy's
 * port as to a JVM. The proxy itself:
 * <ul>
 * <li>stops the replay where {@code --stop-at} asks before it lets the debugger in: a breakpoint
 *     on the agent's {@code Debuggee.stopped}, or one on an exception nothing catches;
 * <li>brackets every method the debugger invokes with the agent's {@code enterInvoke} and
 *     {@code exitInvoke} on the same thread, so that the invoked code runs unrecorded;
 * <li>keeps steps out of Reprise's own code (a class filter on every step request);
 * <li>tells the agent while some thread is held suspended, so that the others waiting for their
 *     turn are not reported stuck.
 * </ul>
 */
public final class DebugProxy implements Closeable {
    private static final String DEBUGGEE = "dev.reprise.agent.runtime.Debuggee";
    private static final String DEBUGGEE_SIGNATURE = "L" + DEBUGGEE.replace('.', '/') + ";";
    private static final long ACCEPT_POLL_MILLIS = 200;
    private static final long HELD_POLL_MILLIS = 500;
    /** Put on {@link #setup}'s queue when the JVM is gone. */
    private static final JdwpPacket GONE = JdwpPacket.command(0, 0, 0, new byte[0]);

    private final ServerSocket forVm;
    private final ServerSocket forDebugger;
    private final StopAt stop;
    private final Consumer<String> say;
    /** The JVM's events before a debugger is connected: the proxy's own stop, or the JVM's end. */
    private final BlockingQueue<JdwpPacket> setup = new LinkedBlockingQueue<>();
    /** The debugger's invocations in flight, by command id: each one's thread, to bracket after it. */
    private final Map<Integer, Long> invoking = new ConcurrentHashMap<>();
    private VmSide vm;
    /** Set once a debugger has connected; read by the JVM's reader to route events. */
    private volatile JdwpLink debugger;
    /** The agent's Debuggee class and its members, once loaded (after the agent's start). */
    private volatile long debuggee;
    private long enterInvoke;
    private long exitInvoke;
    private long heldField;

    private DebugProxy(ServerSocket forVm, ServerSocket forDebugger, StopAt stop, Consumer<String> say) {
        this.forVm = forVm;
        this.forDebugger = forDebugger;
        this.stop = stop;
        this.say = say;
    }

    /** Binds the debugger's port on loopback, and one for the JVM; throws if the port is taken. */
    public static DebugProxy open(int port, StopAt stop, Consumer<String> say) throws IOException {
        InetAddress loopback = InetAddress.getLoopbackAddress();
        ServerSocket forDebugger = new ServerSocket(port, 1, loopback);
        ServerSocket forVm = new ServerSocket(0, 1, loopback);
        forDebugger.setSoTimeout((int) ACCEPT_POLL_MILLIS);
        forVm.setSoTimeout((int) ACCEPT_POLL_MILLIS);
        return new DebugProxy(forVm, forDebugger, stop, say);
    }

    /** The JVM option that makes the replay's JVM connect to the proxy, suspended until it is let go. */
    public String jdwpOption() {
        return "-agentlib:jdwp=transport=dt_socket,server=n,suspend=y,quiet=y,address=127.0.0.1:" + forVm.getLocalPort();
    }

    /**
     * The session, until the replay's JVM is gone or the debugger has detached (the replay then
     * runs on). Errors of the connections end it quietly: the replay reports for itself.
     */
    public void serve(Process replay) {
        try {
            Socket s = accept(forVm, replay);
            if (s == null) {
                return;
            }
            vm = new VmSide(JdwpLink.toVm(s));
            JdwpPacket vmStart = vm.link.read();
            Thread reader = new Thread(this::readVm, "reprise-debug-vm");
            reader.setDaemon(true);
            reader.start();
            vm.readIdSizes();
            if (stop != null && !runToStop()) {
                return;
            }
            say.accept((stop != null ? "stopped at " + stop + "; " : "") + "waiting for a debugger on port "
                    + forDebugger.getLocalPort());
            Socket d = accept(forDebugger, replay);
            if (d == null) {
                return;
            }
            debugger = JdwpLink.toDebugger(d);
            if (stop == null) {
                debugger.send(vmStart); // as the JVM would greet a debugger that attached at its start
            }
            Thread held = new Thread(this::watchHeld, "reprise-debug-held");
            held.setDaemon(true);
            held.start();
            readDebugger();
        } catch (IOException e) {
            // The JVM or the debugger went away: the replay's own status says how it ended.
        } finally {
            close();
        }
    }

    /**
     * Resumes the JVM until it stops where {@link #stop} says, every thread suspended; false if
     * the replay ended first.
     */
    private boolean runToStop() throws IOException {
        int kind;
        int request;
        if (stop.kind() == StopAt.Kind.EXCEPTION) {
            kind = EXCEPTION;
            request = vm.request(EXCEPTION, 1, vm.data().out().u1(MOD_EXCEPTION_ONLY).type(0).u1(0).u1(1).bytes());
        } else {
            int prepared = vm.request(CLASS_PREPARE, 1, vm.data().out().u1(MOD_CLASS_MATCH).string(DEBUGGEE).bytes());
            vm.resume();
            if (awaitEvent() == null) {
                return false;
            }
            vm.clear(CLASS_PREPARE, prepared);
            resolveDebuggee();
            kind = BREAKPOINT;
            long stopped = vm.methodId(debuggee, "stopped");
            request = vm.request(BREAKPOINT, 1, vm.data().out().u1(MOD_LOCATION_ONLY).u1(TYPE_TAG_CLASS).type(debuggee)
                    .method(stopped).u8(0).bytes());
        }
        vm.resume();
        if (awaitEvent() == null) {
            say.accept("the replay ended before it reached " + stop);
            return false;
        }
        vm.clear(kind, request);
        return true;
    }

    /** The next event the JVM sends before a debugger is connected; null if it died or ended. */
    private JdwpPacket awaitEvent() throws IOException {
        JdwpPacket p;
        try {
            p = setup.take();
        } catch (InterruptedException e) {
            throw new IOException(e);
        }
        if (p == GONE) {
            return null;
        }
        JdwpData.In in = vm.data().in(p.data());
        in.u1();
        in.u4();
        return in.u1() == VM_DEATH ? null : p;
    }

    private void resolveDebuggee() throws IOException {
        long type = vm.classId(DEBUGGEE_SIGNATURE);
        if (type == 0) {
            return;
        }
        enterInvoke = vm.methodId(type, "enterInvoke");
        exitInvoke = vm.methodId(type, "exitInvoke");
        heldField = vm.fieldId(type, "held");
        debuggee = type;
    }

    /** The JVM's packets: replies to the proxy's commands, the debugger's replies and the JVM's events. */
    private void readVm() {
        try {
            while (true) {
                JdwpPacket p = vm.link.read();
                if (p.isReply()) {
                    if (vm.answered(p)) {
                        continue;
                    }
                    Long thread = invoking.remove(p.id());
                    if (thread != null) {
                        // The debugger sees the invocation's result once the thread replays again.
                        vm.callThen(CLASS_TYPE, INVOKE_METHOD, vm.invokeAlone(debuggee, thread, exitInvoke), r -> toDebugger(p));
                        continue;
                    }
                } else if (debugger == null && p.is(EVENT, COMPOSITE)) {
                    setup.add(p);
                    continue;
                }
                toDebugger(p);
            }
        } catch (IOException e) {
            vm.lost();
            setup.add(GONE);
            JdwpLink d = debugger;
            if (d != null) {
                try {
                    d.close();
                } catch (IOException ignored) {
                    // closing anyway
                }
            }
        }
    }

    private void toDebugger(JdwpPacket p) {
        JdwpLink d = debugger;
        if (d == null) {
            return;
        }
        try {
            d.send(p);
        } catch (IOException e) {
            // The debugger is gone; its reader ends the session.
        }
    }

    /** The debugger's commands, to the JVM, the ones the proxy acts on changed or bracketed. */
    private void readDebugger() throws IOException {
        while (true) {
            JdwpPacket p;
            try {
                p = debugger.read();
            } catch (IOException e) {
                // Detached without disposing: let the JVM go on as after a dispose.
                vm.link.send(JdwpPacket.command(0x7fffffff, VIRTUAL_MACHINE, DISPOSE, new byte[0]));
                return;
            }
            long thread = invokedOn(p);
            if (thread != 0 && enter(thread)) {
                invoking.put(p.id(), thread);
            } else if (p.is(EVENT_REQUEST, SET)) {
                p = outOfReprise(p);
            }
            vm.link.send(p);
        }
    }

    /** The thread a command runs a method on (an invocation, or a constructor's), else 0. */
    private long invokedOn(JdwpPacket p) {
        boolean objectFirst = p.is(OBJECT_REFERENCE, OBJECT_INVOKE_METHOD);
        if (!objectFirst && !p.is(CLASS_TYPE, INVOKE_METHOD) && !p.is(CLASS_TYPE, NEW_INSTANCE)
                && !p.is(INTERFACE_TYPE, INTERFACE_INVOKE_METHOD)) {
            return 0;
        }
        JdwpData.In in = vm.data().in(p.data());
        if (objectFirst) {
            in.object();
        } else {
            in.type();
        }
        return in.object();
    }

    /** Makes {@code thread} run unrecorded until {@code exitInvoke}; false if it cannot (not suspended by an event). */
    private boolean enter(long thread) throws IOException {
        if (debuggee == 0) {
            resolveDebuggee();
            if (debuggee == 0) {
                return false; // before the agent started: nothing is recorded yet
            }
        }
        return vm.returned(vm.call(CLASS_TYPE, INVOKE_METHOD, vm.invokeAlone(debuggee, thread, enterInvoke)));
    }

    /** A step request, with Reprise's classes excluded first: a step never stops in them. */
    private JdwpPacket outOfReprise(JdwpPacket p) {
        byte[] d = p.data();
        if ((d[0] & 0xff) != SINGLE_STEP) {
            return p;
        }
        JdwpData.In in = vm.data().in(d);
        int kind = in.u1();
        int policy = in.u1();
        int modifiers = in.u4();
        return p.withData(vm.data().out().u1(kind).u1(policy).u4(modifiers + 1).u1(MOD_CLASS_EXCLUDE)
                .string("dev.reprise.*").bytes(d, in.position(), d.length).bytes());
    }

    /** While the debugger is attached: tells the agent whether it holds a thread suspended. */
    private void watchHeld() {
        boolean told = false;
        try {
            while (debugger != null) {
                Thread.sleep(HELD_POLL_MILLIS);
                if (debuggee == 0) {
                    resolveDebuggee();
                    if (debuggee == 0) {
                        continue;
                    }
                }
                boolean held = vm.anySuspended();
                if (held != told) {
                    vm.setStatic(debuggee, heldField, held);
                    told = held;
                }
            }
        } catch (IOException | InterruptedException e) {
            // the session is over
        }
    }

    /** Accepts one connection, giving up once the replay has ended. */
    private static Socket accept(ServerSocket server, Process replay) throws IOException {
        while (replay.isAlive()) {
            try {
                return server.accept();
            } catch (SocketTimeoutException e) {
                // look again whether the replay still runs
            }
        }
        return null;
    }

    @Override
    public void close() {
        for (Closeable c : new Closeable[] {forVm, forDebugger, vm, debugger}) {
            if (c != null) {
                try {
                    c.close();
                } catch (IOException ignored) {
                    // nothing left to do with it
                }
            }
        }
    }
}
