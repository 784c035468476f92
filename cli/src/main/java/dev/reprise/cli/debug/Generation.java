package dev.reprise.cli.debug;

import static dev.reprise.cli.debug.Jdwp.*;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;

/**
 * One replay JVM under the proxy: the first, and one more each time the debugger goes back. It
 * holds the JVM's process and connection, its IDs of the agent's {@code Debuggee} class, the
 * translation of the debugger's IDs ({@link #ids}, null for the first JVM, whose IDs are the
 * debugger's), and the debugger's requests set on it once their class is loaded.
 */
final class Generation {
    static final String DEBUGGEE = "dev.reprise.agent.runtime.events.Debuggee";
    private static final String DEBUGGEE_SIGNATURE = "L" + DEBUGGEE.replace('.', '/') + ";";
    /** Put on {@link #events} when the JVM is gone. */
    static final JdwpPacket GONE = JdwpPacket.command(0, 0, 0, new byte[0]);

    final Process process;
    final VmSide vm;
    /**
     * The translation of the debugger's IDs; null for the first JVM, whose IDs are the debugger's.
     * Set once, by going back before the generation goes live.
     */
    volatile JdwpIds ids;
    /**
     * The JVM's events while the proxy, not the debugger, waits for them (before the debugger
     * connects, and while going back runs the JVM to its target); {@link #live} afterwards.
     */
    final BlockingQueue<JdwpPacket> events = new LinkedBlockingQueue<>();
    /**
     * Set once the debugger gets this JVM's events. Guarded by {@link #routing}, not this object:
     * the JVM's reader takes it for every event, and must never wait for {@link #install}, which
     * holds this object's lock while it waits for a reply the reader delivers.
     */
    private boolean live;
    private final Object routing = new Object();

    /** The agent's Debuggee class and its members, once loaded (after the agent's start). */
    volatile long debuggee;
    long enterInvoke;
    long exitInvoke;
    long heldField;

    /** Requests waiting for their class, by class name, and the proxy's ClassPrepare request for each name. */
    private final Map<String, List<DebuggerRequests.Request>> deferred = new HashMap<>();
    private final Map<Integer, String> preparing = new HashMap<>();

    Generation(Process process, VmSide vm) {
        this.process = process;
        this.vm = vm;
    }

    /** The reader's: whether the event goes to the debugger now, else it was queued for the proxy. */
    boolean liveOrQueued(JdwpPacket event) {
        synchronized (routing) {
            if (!live) {
                events.add(event);
            }
            return live;
        }
    }

    /** From now on events go to the debugger; returns those queued meanwhile, in order. */
    List<JdwpPacket> goLive() {
        synchronized (routing) {
            live = true;
            List<JdwpPacket> queued = new ArrayList<>();
            events.drainTo(queued);
            queued.remove(GONE);
            return queued;
        }
    }

    /** The next event the JVM sends while not live; null if it died or ended. */
    JdwpPacket awaitEvent() throws IOException {
        JdwpPacket p;
        try {
            p = events.take();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
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

    void resolveDebuggee() throws IOException {
        long type = vm.classId(DEBUGGEE_SIGNATURE);
        if (type == 0) {
            return;
        }
        enterInvoke = vm.methodId(type, "enterInvoke");
        exitInvoke = vm.methodId(type, "exitInvoke");
        heldField = vm.fieldId(type, "held");
        debuggee = type;
    }

    /** A breakpoint, suspending every thread, on {@code Debuggee.stopped}: where {@code --stop-at} stops. */
    int requestStopped() throws IOException {
        long stopped = vm.methodId(debuggee, "stopped");
        return vm.request(BREAKPOINT, 1, vm.data().out().u1(MOD_LOCATION_ONLY).u1(TYPE_TAG_CLASS).type(debuggee)
                .method(stopped).u8(0).bytes());
    }

    /**
     * Sets one of the debugger's requests on this JVM, translated; a request on a class not loaded
     * yet waits for it. A request the JVM cannot have is left out: it names a thread or an object
     * this JVM does not have (yet), or the JVM refuses it (docs/debugging.md, "What does not work").
     */
    synchronized void install(DebuggerRequests.Request r) throws IOException {
        byte[] data;
        try {
            data = JdwpRewrite.rewrite(r.data(), "bbM", ids.toVm);
        } catch (JdwpIds.Stale e) {
            String signature = e.unloaded == 0 ? null : ids.signature(e.unloaded);
            if (signature != null && signature.startsWith("L")) {
                defer(r, signature.substring(1, signature.length() - 1).replace('/', '.'));
            }
            return;
        } catch (JdwpRewrite.Unreadable e) {
            return;
        }
        JdwpPacket reply = vm.call(EVENT_REQUEST, SET, data);
        if (reply.errorCode() == 0) {
            ids.bindRequest(r.id(), vm.data().in(reply.data()).u4());
        }
    }

    private void defer(DebuggerRequests.Request r, String className) throws IOException {
        List<DebuggerRequests.Request> waiting = deferred.get(className);
        if (waiting == null) {
            waiting = new ArrayList<>();
            deferred.put(className, waiting);
            preparing.put(vm.requestPrepare(className), className);
        }
        waiting.add(r);
    }

    /** Whether the request is one of the proxy's ClassPrepare requests for deferred requests. */
    synchronized boolean preparing(int request) {
        return preparing.containsKey(request);
    }

    /** The proxy's ClassPrepare request {@code request} was met: sets the requests that waited for the class. */
    synchronized void prepared(int request) throws IOException {
        String className = preparing.remove(request);
        if (className == null) {
            return;
        }
        vm.clear(CLASS_PREPARE, request);
        for (DebuggerRequests.Request r : deferred.remove(className)) {
            install(r);
        }
    }

    /** Ends the JVM; its reader then finds its connection closed. */
    void kill() {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
        try {
            vm.close();
        } catch (IOException e) {
            // it is going anyway
        }
    }
}
