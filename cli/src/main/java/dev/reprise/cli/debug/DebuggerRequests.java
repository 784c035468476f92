package dev.reprise.cli.debug;

import static dev.reprise.cli.debug.Jdwp.*;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The debugger's event requests still in force, as the debugger wrote them (its own IDs), and how
 * often each breakpoint has been hit in the current replay: what going back sets again in a new
 * JVM, and how it finds the previous hit of a breakpoint. Seen at the debugger's side of the
 * proxy, so the IDs are the debugger's in every generation.
 * <p>
 * Thread-safety: commands are seen on the debugger's reader, replies and events on the JVM's reader
 * (or its translator); the maps they share are concurrent or guarded by this object's lock.
 */
final class DebuggerRequests {
    /** One request: EventRequest.Set's data (kind, suspend policy, modifiers) and the id it was given. */
    record Request(int id, byte[] data) {
        int kind() {
            return data[0] & 0xff;
        }
    }

    /** A breakpoint's hit: its request and the hit's number in this replay, from 1. */
    record Hit(int request, int number) {
    }

    /** EventRequest.Set commands waiting for their reply, by command id. */
    private final Map<Integer, byte[]> setting = new ConcurrentHashMap<>();
    private final Map<Integer, Request> active = new LinkedHashMap<>();
    private final Map<Integer, Integer> hits = new HashMap<>();
    private Hit last;
    private int highest;

    /** A command from the debugger. */
    void sent(JdwpPacket p) {
        if (p.commandSet() != EVENT_REQUEST) {
            return;
        }
        if (p.command() == SET) {
            setting.put(p.id(), p.data());
        } else if (p.command() == CLEAR) {
            synchronized (this) {
                active.remove(ByteBuffer.wrap(p.data(), 1, 4).getInt());
            }
        } else if (p.command() == CLEAR_ALL_BREAKPOINTS) {
            synchronized (this) {
                active.values().removeIf(r -> r.kind() == BREAKPOINT);
            }
        }
    }

    /** A reply to the debugger. */
    void replied(JdwpPacket reply) {
        if (setting.isEmpty()) {
            return;
        }
        byte[] data = setting.remove(reply.id());
        if (data != null && reply.errorCode() == 0) {
            int id = ByteBuffer.wrap(reply.data()).getInt();
            synchronized (this) {
                active.put(id, new Request(id, data));
                highest = Math.max(highest, id);
            }
        }
    }

    /** Events sent to the debugger: counts its breakpoints' hits. */
    synchronized void delivered(List<JdwpRewrite.Event> events) {
        for (JdwpRewrite.Event e : events) {
            if (e.kind() == BREAKPOINT && e.request() != 0) {
                last = new Hit(e.request(), hits.merge(e.request(), 1, Integer::sum));
            }
        }
    }

    synchronized List<Request> active() {
        return new ArrayList<>(active.values());
    }

    /** The debugger's ClassUnload requests without modifiers (JDI sets one for itself, to keep its classes current). */
    synchronized List<Integer> classUnloads() {
        return active.values().stream().filter(r -> r.kind() == CLASS_UNLOAD && ByteBuffer.wrap(r.data(), 2, 4).getInt() == 0)
                .map(Request::id).toList();
    }

    /** The last breakpoint hit the debugger was sent, or null. */
    synchronized Hit last() {
        return last;
    }

    /** Above every request id the debugger has been given. */
    synchronized int nextId() {
        return highest + 1;
    }

    /** A new replay's counts, from its start up to the hit {@code now}, which the debugger is sent next. */
    synchronized void restart(Map<Integer, Integer> counted, Hit now) {
        hits.clear();
        hits.putAll(counted);
        last = now;
    }
}
