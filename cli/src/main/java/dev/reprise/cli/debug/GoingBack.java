package dev.reprise.cli.debug;

import static dev.reprise.cli.debug.Jdwp.*;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Going back: from a replay the debugger holds suspended, a new replay JVM of the same recording
 * is started and run to an earlier moment, under the debugger's breakpoints, and then takes the
 * old one's place under the same debugger connection. The moment is the previous hit of the
 * breakpoint the debugger was last stopped at (its hits are counted in every replay, so hit
 * {@code k-1} is found again), or a recorded event ({@code --stop-at}'s mechanism).
 * <p>
 * The old JVM is ended only once the new one stands at the moment: if the new one cannot get
 * there, the debugger goes on with the old one as if nothing happened.
 */
final class GoingBack {
    /** What became of a request: the line for {@code reprise back}, and the event to send the debugger, if any. */
    record Outcome(String line, Generation next, JdwpPacket event) {
        static Outcome error(int status, String why) {
            return new Outcome("error " + status + " " + why, null, null);
        }
    }

    /** The proxy's side of going back; called with the proxy's forwarding held. */
    interface Proxy {
        Generation current();

        boolean debuggerAttached();

        /** Starts a new replay JVM stopping where {@code stop} says (null: nowhere), connected and suspended at its start. */
        Generation launch(StopAt stop) throws IOException;

        DebuggerRequests requests();
    }

    private static final int USAGE = 2;
    private static final int DIVERGED = 3;

    private final Proxy proxy;
    private final Function<String, StopAt> stops;

    GoingBack(Proxy proxy, Function<String, StopAt> stops) {
        this.proxy = proxy;
        this.stops = stops;
    }

    Outcome run(BackRequest request) throws IOException {
        Generation old = proxy.current();
        if (!proxy.debuggerAttached()) {
            return Outcome.error(USAGE, "no debugger is attached to the replay on this port");
        }
        if (!old.vm.data().allEightBytes()) {
            return Outcome.error(USAGE, "this JVM's JDWP identifiers are not 8 bytes wide: going back is not supported");
        }
        StopAt stop = null;
        DebuggerRequests.Hit previous = null;
        if (request.to() != null) {
            try {
                stop = stops.apply(request.to());
            } catch (IllegalArgumentException e) {
                return Outcome.error(USAGE, e.getMessage().replace("--stop-at", "--to"));
            }
            if (stop.kind() != StopAt.Kind.EVENT) {
                return Outcome.error(USAGE, "--to wants THREAD:EVENT (such as 1:120), not '" + request.to() + "'");
            }
        } else {
            DebuggerRequests.Hit last = proxy.requests().last();
            if (last == null) {
                return Outcome.error(USAGE, "the debugger has not stopped at a breakpoint in this replay"
                        + " (go back to a recorded event with --to THREAD:EVENT)");
            }
            if (last.number() < 2) {
                return Outcome.error(USAGE, "the replay is at its breakpoint's first hit: there is no previous one"
                        + " (go back to a recorded event with --to THREAD:EVENT)");
            }
            previous = new DebuggerRequests.Hit(last.request(), last.number() - 1);
        }
        if (!old.vm.anySuspended()) {
            return Outcome.error(USAGE, "the replay is running: stop it in the debugger first");
        }
        Generation next = proxy.launch(stop);
        try {
            next.ids = JdwpIds.next(old.ids, old.vm, next.vm, proxy.requests().nextId());
            return runTo(next, stop, previous);
        } catch (IOException | RuntimeException e) {
            next.kill();
            throw e;
        }
    }

    /** Runs {@code next} to the target under the debugger's breakpoints, counting their hits. */
    private Outcome runTo(Generation next, StopAt stop, DebuggerRequests.Hit previous) throws IOException {
        List<DebuggerRequests.Request> requests = proxy.requests().active();
        for (DebuggerRequests.Request r : requests) {
            if (r.kind() == BREAKPOINT) {
                next.install(r);
            }
        }
        int debuggeePrepare = stop == null ? 0
                : next.vm.requestPrepare(Generation.DEBUGGEE);
        int stopped = 0;
        Map<Integer, Integer> hits = new HashMap<>();
        next.vm.resume();
        while (true) {
            JdwpPacket p = next.awaitEvent();
            if (p == null) {
                next.kill();
                return Outcome.error(DIVERGED, "the new replay ended before it reached "
                        + (stop != null ? stop : "the breakpoint's hit " + previous.number()));
            }
            List<JdwpRewrite.Event> events;
            try {
                events = JdwpRewrite.events(p.data());
            } catch (JdwpRewrite.Unreadable e) {
                next.kill();
                return Outcome.error(DIVERGED, "the new replay sent an event the proxy cannot read: " + e.getMessage());
            }
            boolean reached = false;
            for (JdwpRewrite.Event e : events) {
                if (e.request() == debuggeePrepare && debuggeePrepare != 0) {
                    next.vm.clear(CLASS_PREPARE, debuggeePrepare);
                    next.resolveDebuggee();
                    stopped = next.requestStopped();
                } else if (next.preparing(e.request())) {
                    next.prepared(e.request());
                } else if (e.kind() == BREAKPOINT && e.request() == stopped && stopped != 0) {
                    reached = true;
                } else if (e.kind() == BREAKPOINT) {
                    int outer = next.ids.requestOut(e.request());
                    int n = hits.merge(outer, 1, Integer::sum);
                    reached |= previous != null && outer == previous.request() && n == previous.number();
                }
            }
            if (reached) {
                if (stopped != 0) {
                    next.vm.clear(BREAKPOINT, stopped);
                    p = asUnrequested(p, events);
                }
                return arrived(next, p, hits, previous, stop);
            }
            next.vm.resumeAfter(p.data()[0], events.isEmpty() ? 0 : events.get(0).thread());
        }
    }

    /** Sets the debugger's other requests, binds its threads, and hands over. */
    private Outcome arrived(Generation next, JdwpPacket event, Map<Integer, Integer> hits, DebuggerRequests.Hit previous,
            StopAt stop) throws IOException {
        for (DebuggerRequests.Request r : proxy.requests().active()) {
            if (r.kind() != BREAKPOINT && r.kind() != SINGLE_STEP) {
                next.install(r);
            }
        }
        next.ids.bindThreads();
        proxy.requests().restart(hits, previous);
        String where = stop != null ? "before event " + stop : "at the breakpoint's hit " + previous.number();
        return new Outcome("ok went back " + where + " in a new replay JVM", next, event);
    }

    /** The stop on {@code Debuggee.stopped} as an event of no request (id 0): the debugger did not ask for it. */
    private static JdwpPacket asUnrequested(JdwpPacket p, List<JdwpRewrite.Event> events) {
        byte[] data = p.data().clone();
        for (JdwpRewrite.Event e : events) {
            ByteBuffer.wrap(data).putInt(e.start() + 1, 0);
        }
        return p.withData(data);
    }
}
