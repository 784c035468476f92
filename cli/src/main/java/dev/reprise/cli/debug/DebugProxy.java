package dev.reprise.cli.debug;

import static dev.reprise.cli.debug.Jdwp.*;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.function.Consumer;
import java.util.function.Function;

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
 *     turn are not reported stuck;
 * <li>goes back ({@link GoingBack}) when {@code reprise back} asks on the same port: a new replay
 *     JVM takes the old one's place, and the proxy translates the debugger's IDs to the new JVM's
 *     and back ({@link JdwpIds}). Until then packets pass unchanged.
 * </ul>
 */
public final class DebugProxy implements Closeable {
    /** Starts a replay JVM of the recording, stopping where {@code stop} says (null: nowhere), with this JDWP option. */
    public interface Launcher {
        Process launch(StopAt stop, String jdwpOption) throws IOException;
    }

    private static final long ACCEPT_POLL_MILLIS = 200;
    private static final long HELD_POLL_MILLIS = 500;
    private static final int FIRST_BYTES_MILLIS = 10_000;
    /** A request id no debugger is given: JDI drops its events as a deleted request's, and resumes their set. */
    private static final int NO_REQUEST = Integer.MAX_VALUE;

    private final ServerSocket forVm;
    private final ServerSocket forDebugger;
    private final StopAt stop;
    private final Consumer<String> say;
    private final Launcher launcher;
    private final GoingBack back;
    private final DebuggerRequests requests = new DebuggerRequests();
    /** The debugger's invocations in flight, by command id: each one's thread, to bracket after it. */
    private final Map<Integer, Long> invoking = new ConcurrentHashMap<>();
    /** Commands sent to a translated JVM whose replies hold IDs, by command id: their layouts. */
    private final Map<Integer, JdwpLayouts.Layout> replying = new ConcurrentHashMap<>();
    /** A JVM's packet for the debugger, to translate; a null packet: the JVM is gone. */
    private record Outgoing(Generation from, JdwpPacket packet) {
    }

    /** A translated JVM's packets for the debugger, translated in order on one thread. */
    private final BlockingQueue<Outgoing> toTranslate = new LinkedBlockingQueue<>();
    /**
     * Held while one debugger command is forwarded, and through all of going back: a command
     * reaches the JVM that is current when it is forwarded, translated for it.
     */
    private final Object forwarding = new Object();
    /** The JVM the debugger sees; replaced only by going back, under {@link #forwarding}. */
    private volatile Generation current;
    /** Set once a debugger has connected. */
    private volatile JdwpLink debugger;
    /**
     * Set while the proxy waits for the debugger's answer to its set of no request ({@link #hand}):
     * the next VirtualMachine.Resume. A JDI client sends it when it takes the set from its queue,
     * whenever that is; a thread's resume first means the client sends none. Read and cleared on
     * the debugger's reader only, set before the set is sent.
     */
    private volatile boolean flushing;
    private Thread translator;

    private DebugProxy(ServerSocket forVm, ServerSocket forDebugger, StopAt stop, Consumer<String> say, Launcher launcher,
            Function<String, StopAt> stops) {
        this.forVm = forVm;
        this.forDebugger = forDebugger;
        this.stop = stop;
        this.say = say;
        this.launcher = launcher;
        this.back = new GoingBack(new GoingBack.Proxy() {
            public Generation current() {
                return current;
            }

            public boolean debuggerAttached() {
                return debugger != null;
            }

            public Generation launch(StopAt at) throws IOException {
                return DebugProxy.this.launch(at);
            }

            public DebuggerRequests requests() {
                return requests;
            }
        }, stops);
    }

    /**
     * Binds the debugger's port on loopback, and one for the JVM; throws if the port is taken.
     * {@code stops} checks a moment {@code reprise back --to} names against the recording.
     */
    public static DebugProxy open(int port, StopAt stop, Consumer<String> say, Launcher launcher,
            Function<String, StopAt> stops) throws IOException {
        InetAddress loopback = InetAddress.getLoopbackAddress();
        ServerSocket forDebugger = new ServerSocket(port, 1, loopback);
        ServerSocket forVm = new ServerSocket(0, 1, loopback);
        forDebugger.setSoTimeout((int) ACCEPT_POLL_MILLIS);
        forVm.setSoTimeout((int) ACCEPT_POLL_MILLIS);
        return new DebugProxy(forVm, forDebugger, stop, say, launcher, stops);
    }

    /** The JVM option that makes the replay's JVM connect to the proxy, suspended until it is let go. */
    public String jdwpOption() {
        return "-agentlib:jdwp=transport=dt_socket,server=n,suspend=y,quiet=y,address=127.0.0.1:" + forVm.getLocalPort();
    }

    /** Waits for the replay to end; returns its JVM's process: the last one, when going back replaced the first. */
    public Process awaitLast(Process first) throws InterruptedException {
        Process p = first;
        while (true) {
            p.waitFor();
            Generation g = current;
            Process now = g == null ? first : g.process;
            if (now == p) {
                return p;
            }
            p = now;
        }
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
            Generation first = new Generation(replay, new VmSide(JdwpLink.toVm(s)));
            JdwpPacket vmStart = first.vm.link.read();
            current = first;
            startReader(first);
            first.vm.readIdSizes();
            if (stop != null && !runToStop(first)) {
                return;
            }
            say.accept((stop != null ? "stopped at " + stop + "; " : "") + "waiting for a debugger on port "
                    + forDebugger.getLocalPort());
            while (true) {
                Socket c = accept(forDebugger, null);
                if (c == null) {
                    return;
                }
                Thread t = new Thread(() -> connected(c, vmStart), "reprise-debug-connection");
                t.setDaemon(true);
                t.start();
            }
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
    private boolean runToStop(Generation g) throws IOException {
        int kind;
        int request;
        if (stop.kind() == StopAt.Kind.EXCEPTION) {
            kind = EXCEPTION;
            request = g.vm.request(EXCEPTION, 1, g.vm.data().out().u1(MOD_EXCEPTION_ONLY).type(0).u1(0).u1(1).bytes());
        } else {
            int prepared = g.vm.requestPrepare(Generation.DEBUGGEE);
            g.vm.resume();
            if (g.awaitEvent() == null) {
                return false;
            }
            g.vm.clear(CLASS_PREPARE, prepared);
            g.resolveDebuggee();
            kind = BREAKPOINT;
            request = g.requestStopped();
        }
        g.vm.resume();
        if (g.awaitEvent() == null) {
            say.accept("the replay ended before it reached " + stop);
            return false;
        }
        g.vm.clear(kind, request);
        return true;
    }

    /** A connection to the debugger's port: the debugger (JDWP's handshake first), or a request of {@code reprise back}. */
    private void connected(Socket c, JdwpPacket vmStart) {
        try {
            c.setSoTimeout(FIRST_BYTES_MILLIS);
            InputStream in = c.getInputStream();
            byte[] first = in.readNBytes(JdwpPacket.HANDSHAKE.length);
            c.setSoTimeout(0);
            if (Arrays.equals(first, JdwpPacket.HANDSHAKE)) {
                attach(c, vmStart);
                return;
            }
            String rest = BackRequest.readLine(in);
            BackRequest r = rest == null ? null : BackRequest.parse(new String(first, StandardCharsets.UTF_8) + rest);
            if (r != null) {
                OutputStream out = c.getOutputStream();
                out.write((BackRequest.WORKING + "\n").getBytes(StandardCharsets.UTF_8));
                out.flush();
                out.write((goBack(r) + "\n").getBytes(StandardCharsets.UTF_8));
                out.flush();
            }
            c.close();
        } catch (IOException e) {
            try {
                c.close();
            } catch (IOException ignored) {
                // gone already
            }
        }
    }

    /** The debugger's session, until it detaches; the proxy then closes, and the replay runs on. */
    private void attach(Socket c, JdwpPacket vmStart) throws IOException {
        synchronized (this) {
            if (debugger != null) {
                c.close(); // one debugger at a time
                return;
            }
            debugger = JdwpLink.toDebugger(c);
        }
        if (stop == null) {
            debugger.send(vmStart); // as the JVM would greet a debugger that attached at its start
        }
        for (JdwpPacket p : current.goLive()) {
            toDebugger(current, p);
        }
        Thread held = new Thread(this::watchHeld, "reprise-debug-held");
        held.setDaemon(true);
        held.start();
        try {
            readDebugger();
        } finally {
            close();
        }
    }

    /** Goes back as {@code r} asks; the answer's line for {@code reprise back}. */
    private String goBack(BackRequest r) {
        GoingBack.Outcome o;
        try {
            synchronized (forwarding) {
                o = back.run(r);
                if (o.next() != null) {
                    Generation old = current;
                    current = o.next();
                    old.kill();
                    startTranslator();
                }
            }
        } catch (IOException | RuntimeException e) {
            return "error 3 going back failed: " + e;
        }
        if (o.next() != null) {
            hand(o.next(), o.event());
        }
        return o.line();
    }

    /**
     * Hands the debugger the new JVM's stop. A JDI client keeps what it read of a suspended
     * thread (its frames) until it resumes it; so the stop comes right after an event set of no
     * request, which JDI drops as it takes it from its queue, resuming the JVM as for a deleted
     * request's set: that drops its caches, and the proxy answers the resume itself, so the new
     * JVM stays where it stopped. Then the classes the new JVM has not loaded yet are unloaded, for
     * the debugger's ClassUnload requests: JDI forgets them, as classes of an earlier moment,
     * until they are prepared again.
     */
    private void hand(Generation next, JdwpPacket event) {
        try {
            JdwpPacket translated = event.withData(JdwpRewrite.rewrite(event.data(), "bE", next.ids.toDebugger));
            List<JdwpRewrite.Event> events = JdwpRewrite.events(translated.data());
            long thread = events.isEmpty() ? 0 : events.get(0).thread();
            byte[] noRequest = ByteBuffer.allocate(1 + 4 + 1 + 4 + 8).put((byte) SUSPEND_ALL).putInt(1).put((byte) THREAD_START)
                    .putInt(NO_REQUEST).putLong(thread).array();
            flushing = true;
            debugger.send(JdwpPacket.command(NO_REQUEST, EVENT, COMPOSITE, noRequest));
            List<Integer> unloads = requests.classUnloads();
            List<String> notLoaded = unloads.isEmpty() ? List.of() : next.ids.notLoaded();
            if (!notLoaded.isEmpty()) {
                JdwpData.Out unloaded = next.vm.data().out().u1(SUSPEND_NONE).u4(unloads.size() * notLoaded.size());
                for (int request : unloads) {
                    for (String signature : notLoaded) {
                        unloaded.u1(CLASS_UNLOAD).u4(request).string(signature);
                    }
                }
                debugger.send(JdwpPacket.command(NO_REQUEST, EVENT, COMPOSITE, unloaded.bytes()));
            }
            debugger.send(translated);
            for (JdwpPacket p : next.goLive()) {
                toDebugger(next, p);
            }
        } catch (IOException | JdwpIds.Stale | JdwpRewrite.Unreadable e) {
            // the debugger is gone, or the event is one the table cannot read: the session ends or goes on without it
        }
    }

    /** Starts a replay JVM for going back, connected, suspended at its start. */
    private Generation launch(StopAt at) throws IOException {
        Process p = launcher.launch(at, jdwpOption());
        try {
            Socket s = accept(forVm, p);
            if (s == null) {
                throw new IOException("the new replay's JVM ended before it connected");
            }
            Generation g = new Generation(p, new VmSide(JdwpLink.toVm(s)));
            g.vm.link.read(); // VMStart
            startReader(g);
            g.vm.readIdSizes();
            return g;
        } catch (IOException | RuntimeException e) {
            p.destroyForcibly();
            throw e;
        }
    }

    private void startReader(Generation g) {
        Thread reader = new Thread(() -> readVm(g), "reprise-debug-vm");
        reader.setDaemon(true);
        reader.start();
    }

    private synchronized void startTranslator() {
        if (translator == null) {
            translator = new Thread(this::translate, "reprise-debug-translate");
            translator.setDaemon(true);
            translator.start();
        }
    }

    /** A JVM's packets: replies to the proxy's commands, the debugger's replies and the JVM's events. */
    private void readVm(Generation g) {
        try {
            while (true) {
                JdwpPacket p = g.vm.link.read();
                if (p.isReply()) {
                    if (g.vm.answered(p)) {
                        continue;
                    }
                    Long thread = invoking.remove(p.id());
                    if (thread != null) {
                        // The debugger sees the invocation's result once the thread replays again.
                        g.vm.callThen(CLASS_TYPE, INVOKE_METHOD, g.vm.invokeAlone(g.debuggee, thread, g.exitInvoke),
                                r -> toDebugger(g, p));
                        continue;
                    }
                } else if (p.is(EVENT, COMPOSITE) && !g.liveOrQueued(p)) {
                    continue;
                }
                toDebugger(g, p);
            }
        } catch (IOException e) {
            g.vm.lost();
            g.events.add(Generation.GONE);
            if (g == current) {
                if (g.ids != null) {
                    toTranslate.add(new Outgoing(g, null)); // after the packets still to translate, such as Dispose's reply
                } else {
                    closeDebugger();
                }
            }
        }
    }

    /** The JVM is gone: so is the debugger's connection, as to a JVM that ended. */
    private void closeDebugger() {
        JdwpLink d = debugger;
        if (d != null) {
            try {
                d.close();
            } catch (IOException ignored) {
                // closing anyway
            }
        }
    }

    private void toDebugger(Generation g, JdwpPacket p) {
        if (g != current) {
            return; // a JVM going back has left, or has not taken over yet
        }
        if (g.ids != null) {
            toTranslate.add(new Outgoing(g, p));
            return;
        }
        send(p);
    }

    /** Sends the debugger a packet in its IDs, noting its requests and breakpoint hits. */
    private void send(JdwpPacket p) {
        JdwpLink d = debugger;
        if (d == null) {
            return;
        }
        if (p.isReply()) {
            requests.replied(p);
        } else if (p.is(EVENT, COMPOSITE)) {
            try {
                requests.delivered(JdwpRewrite.events(p.data()));
            } catch (JdwpRewrite.Unreadable e) {
                // an event kind the table does not know: no breakpoint among them to count
            }
        }
        try {
            d.send(p);
        } catch (IOException e) {
            // The debugger is gone; its reader ends the session.
        }
    }

    /** A translated JVM's packets, in the order its reader read them, in the debugger's IDs. */
    private void translate() {
        while (true) {
            Outgoing next;
            try {
                next = toTranslate.take();
            } catch (InterruptedException e) {
                return;
            }
            Generation g = next.from();
            JdwpPacket p = next.packet();
            if (g != current) {
                continue;
            }
            if (p == null) {
                closeDebugger();
                continue;
            }
            try {
                if (p.isReply()) {
                    JdwpLayouts.Layout layout = replying.remove(p.id());
                    if (layout != null && p.errorCode() == 0 && !layout.reply().isEmpty()) {
                        p = p.withData(JdwpRewrite.rewrite(p.data(), layout.reply(), g.ids.toDebugger));
                    }
                } else if (p.is(EVENT, COMPOSITE)) {
                    p = withoutOwnEvents(g, p);
                    if (p == null) {
                        continue;
                    }
                    p = p.withData(JdwpRewrite.rewrite(p.data(), "bE", g.ids.toDebugger));
                }
            } catch (JdwpIds.Stale | JdwpRewrite.Unreadable e) {
                // sent as the JVM wrote it: a kind the table does not know
            } catch (IOException e) {
                continue; // the JVM is gone
            }
            send(p);
        }
    }

    /**
     * The composite without the events of the proxy's own requests (a class that requests waited
     * for is prepared: they are set now); null if none is left, the JVM then resumed.
     */
    private static JdwpPacket withoutOwnEvents(Generation g, JdwpPacket p) throws IOException, JdwpRewrite.Unreadable {
        List<JdwpRewrite.Event> events = JdwpRewrite.events(p.data());
        List<JdwpRewrite.Event> others = events.stream().filter(e -> !g.preparing(e.request())).toList();
        if (others.size() == events.size()) {
            return p;
        }
        for (JdwpRewrite.Event e : events) {
            g.prepared(e.request());
        }
        if (others.isEmpty()) {
            g.vm.resumeAfter(p.data()[0], events.get(0).thread());
            return null;
        }
        ByteBuffer data = ByteBuffer.allocate(p.data().length).put(p.data()[0]).putInt(others.size());
        for (JdwpRewrite.Event e : others) {
            data.put(p.data(), e.start(), e.end() - e.start());
        }
        return p.withData(Arrays.copyOf(data.array(), data.position()));
    }

    /** The debugger's commands, to the JVM, the ones the proxy acts on changed or bracketed. */
    private void readDebugger() throws IOException {
        while (true) {
            JdwpPacket p;
            try {
                p = debugger.read();
            } catch (IOException e) {
                // Detached without disposing: let the JVM go on as after a dispose.
                current.vm.link.send(JdwpPacket.command(0x7fffffff, VIRTUAL_MACHINE, DISPOSE, new byte[0]));
                return;
            }
            if (flushing && p.is(VIRTUAL_MACHINE, RESUME)) {
                flushing = false;
                debugger.send(JdwpPacket.reply(p.id(), 0, new byte[0])); // the new JVM stays where it stopped
                continue;
            }
            if (p.is(THREAD_REFERENCE, THREAD_RESUME)) {
                flushing = false;
            }
            synchronized (forwarding) {
                forward(p);
            }
        }
    }

    private void forward(JdwpPacket p) throws IOException {
        Generation g = current;
        requests.sent(p);
        JdwpPacket q = p;
        if (g.ids != null) {
            q = toVm(g, p);
            if (q == null) {
                return;
            }
        }
        long thread = invokedOn(g, q);
        if (thread != 0 && enter(g, thread)) {
            invoking.put(q.id(), thread);
        } else if (q.is(EVENT_REQUEST, SET)) {
            q = outOfReprise(g, q);
        }
        g.vm.link.send(q);
    }

    /**
     * A command in the JVM's IDs; null if the proxy answered it: an ID this JVM has no
     * counterpart for gets the JDWP error for it, and a request on a class this JVM has not
     * loaded yet is accepted and set once it is.
     */
    private JdwpPacket toVm(Generation g, JdwpPacket p) throws IOException {
        if (p.is(VIRTUAL_MACHINE, DISPOSE_OBJECTS)) {
            return p.withData(g.ids.disposable(p.data()));
        }
        JdwpLayouts.Layout layout = JdwpLayouts.of(p.commandSet(), p.command());
        if (layout == null) {
            return p;
        }
        try {
            JdwpPacket q = layout.command().isEmpty() ? p : p.withData(JdwpRewrite.rewrite(p.data(), layout.command(), g.ids.toVm));
            if (!layout.reply().isEmpty()) {
                replying.put(p.id(), layout);
            }
            return q;
        } catch (JdwpRewrite.Unreadable e) {
            return p;
        } catch (JdwpIds.Stale e) {
            boolean generic = p.is(REFERENCE_TYPE, SIGNATURE_WITH_GENERIC);
            String signature = p.is(REFERENCE_TYPE, SIGNATURE) || generic ? g.ids.signature(ByteBuffer.wrap(p.data()).getLong())
                    : null;
            if (signature != null) {
                // A class not loaded yet still has its name: JDI reads it to forget the classes the proxy unloaded.
                JdwpData.Out name = g.vm.data().out().string(signature);
                send(JdwpPacket.reply(p.id(), 0, (generic ? name.string("") : name).bytes()));
            } else if (p.is(EVENT_REQUEST, SET) && e.unloaded != 0) {
                int id = g.ids.newRequest();
                g.install(new DebuggerRequests.Request(id, p.data()));
                send(JdwpPacket.reply(p.id(), 0, ByteBuffer.allocate(4).putInt(id).array()));
            } else {
                send(JdwpPacket.reply(p.id(), e.error, new byte[0]));
            }
            return null;
        }
    }

    /** The thread a command runs a method on (an invocation, or a constructor's), else 0. */
    private static long invokedOn(Generation g, JdwpPacket p) {
        boolean objectFirst = p.is(OBJECT_REFERENCE, OBJECT_INVOKE_METHOD);
        if (!objectFirst && !p.is(CLASS_TYPE, INVOKE_METHOD) && !p.is(CLASS_TYPE, NEW_INSTANCE)
                && !p.is(INTERFACE_TYPE, INTERFACE_INVOKE_METHOD)) {
            return 0;
        }
        JdwpData.In in = g.vm.data().in(p.data());
        if (objectFirst) {
            in.object();
        } else {
            in.type();
        }
        return in.object();
    }

    /** Makes {@code thread} run unrecorded until {@code exitInvoke}; false if it cannot (not suspended by an event). */
    private static boolean enter(Generation g, long thread) throws IOException {
        if (g.debuggee == 0) {
            g.resolveDebuggee();
            if (g.debuggee == 0) {
                return false; // before the agent started: nothing is recorded yet
            }
        }
        return g.vm.returned(g.vm.call(CLASS_TYPE, INVOKE_METHOD, g.vm.invokeAlone(g.debuggee, thread, g.enterInvoke)));
    }

    /** A step request, with Reprise's classes excluded first: a step never stops in them. */
    private static JdwpPacket outOfReprise(Generation g, JdwpPacket p) {
        byte[] d = p.data();
        if ((d[0] & 0xff) != SINGLE_STEP) {
            return p;
        }
        JdwpData.In in = g.vm.data().in(d);
        int kind = in.u1();
        int policy = in.u1();
        int modifiers = in.u4();
        return p.withData(g.vm.data().out().u1(kind).u1(policy).u4(modifiers + 1).u1(MOD_CLASS_EXCLUDE)
                .string("dev.reprise.*").bytes(d, in.position(), d.length).bytes());
    }

    /** While the debugger is attached: tells the agent whether it holds a thread suspended. */
    private void watchHeld() {
        boolean told = false;
        Generation toldTo = null;
        while (debugger != null) {
            Generation g = current;
            try {
                Thread.sleep(HELD_POLL_MILLIS);
                if (g.debuggee == 0) {
                    g.resolveDebuggee();
                    if (g.debuggee == 0) {
                        continue;
                    }
                }
                boolean held = g.vm.anySuspended();
                if (held != told || g != toldTo) {
                    g.vm.setStatic(g.debuggee, g.heldField, held);
                    told = held;
                    toldTo = g;
                }
            } catch (InterruptedException e) {
                return;
            } catch (IOException e) {
                if (g == current) {
                    return; // the session is over; else the JVM asked was replaced meanwhile
                }
            }
        }
    }

    /** Accepts one connection, giving up once the replay ({@code replay}, else the current JVM) has ended. */
    private Socket accept(ServerSocket server, Process replay) throws IOException {
        while ((replay != null ? replay : current.process).isAlive()) {
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
        Generation g = current;
        for (Closeable c : new Closeable[] {forVm, forDebugger, g == null ? null : g.vm, debugger}) {
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
