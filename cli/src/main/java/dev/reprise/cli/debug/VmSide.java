package dev.reprise.cli.debug;

import static dev.reprise.cli.debug.Jdwp.*;

import java.io.Closeable;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * The proxy's connection to the replay's JVM, and the commands the proxy sends on it of its own.
 * Their ids come from a range of their own, far above the ids a debugger counts up from, so the
 * reader ({@link DebugProxy}) hands their replies here ({@link #answered}) rather than to the
 * debugger.
 */
final class VmSide implements Closeable {
    private static final int OWN_IDS = 0x40000000;

    final JdwpLink link;
    private final AtomicInteger nextId = new AtomicInteger(OWN_IDS);
    private final Map<Integer, Consumer<JdwpPacket>> pending = new ConcurrentHashMap<>();
    /** Set once, from the VM's reply to IDSizes, before any other command of the proxy's. */
    private volatile JdwpData data;
    private volatile boolean gone;

    VmSide(JdwpLink link) {
        this.link = link;
    }

    JdwpData data() {
        return data;
    }

    /** The reader's: runs the continuation of the command {@code reply} answers, if one of ours. */
    boolean answered(JdwpPacket reply) {
        Consumer<JdwpPacket> then = pending.remove(reply.id());
        if (then == null) {
            return false;
        }
        then.accept(reply);
        return true;
    }

    /** The reader's, at the VM's end: every command still waiting fails. */
    void lost() {
        gone = true;
        for (Integer id : pending.keySet()) {
            Consumer<JdwpPacket> then = pending.remove(id);
            if (then != null) {
                then.accept(null);
            }
        }
    }

    /** Sends a command; {@code then} gets its reply on the reader's thread, or null if the VM is gone. */
    void callThen(int set, int cmd, byte[] body, Consumer<JdwpPacket> then) throws IOException {
        int id = nextId.getAndIncrement();
        pending.put(id, then);
        if (gone) {
            lost();
            return;
        }
        link.send(JdwpPacket.command(id, set, cmd, body));
    }

    /** Sends a command and waits for its reply; not on the reader's thread. */
    JdwpPacket call(int set, int cmd, byte[] body) throws IOException {
        CompletableFuture<JdwpPacket> reply = new CompletableFuture<>();
        callThen(set, cmd, body, reply::complete);
        JdwpPacket p;
        try {
            p = reply.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted");
        } catch (ExecutionException e) {
            throw new IOException(e.getCause());
        }
        if (p == null) {
            throw new IOException("the replay's JVM is gone");
        }
        return p;
    }

    /** A command that must succeed: throws with its JDWP error code otherwise. */
    JdwpData.In ok(int set, int cmd, byte[] body) throws IOException {
        JdwpPacket p = call(set, cmd, body);
        if (p.errorCode() != 0) {
            throw new IOException("JDWP command " + set + "/" + cmd + " failed with error " + p.errorCode());
        }
        return data.in(p.data());
    }

    void readIdSizes() throws IOException {
        JdwpPacket p = call(VIRTUAL_MACHINE, ID_SIZES, new byte[0]);
        data = JdwpData.of(p.data());
    }

    void resume() throws IOException {
        ok(VIRTUAL_MACHINE, RESUME, new byte[0]);
    }

    /** The loaded class with this JNI signature, or 0 if none is. */
    long classId(String signature) throws IOException {
        JdwpData.In in = ok(VIRTUAL_MACHINE, CLASSES_BY_SIGNATURE, data.out().string(signature).bytes());
        if (in.u4() == 0) {
            return 0;
        }
        in.u1();
        return in.type();
    }

    long methodId(long type, String name) throws IOException {
        return memberId(type, METHODS, name);
    }

    long fieldId(long type, String name) throws IOException {
        return memberId(type, FIELDS, name);
    }

    /** The id of the method or field ({@code command}: Methods or Fields) named {@code name} of {@code type}. */
    private long memberId(long type, int command, String name) throws IOException {
        JdwpData.In in = ok(REFERENCE_TYPE, command, data.out().type(type).bytes());
        for (int n = in.u4(); n > 0; n--) {
            long id = command == METHODS ? in.method() : in.field();
            String found = in.string();
            in.string(); // signature
            in.u4(); // modifiers
            if (found.equals(name)) {
                return id;
            }
        }
        throw new IOException("no member " + name + " in the replay's debugger support");
    }

    /** Sets an event request with modifiers already encoded; returns its id. */
    int request(int kind, int modifiers, byte[] encoded) throws IOException {
        byte[] body = data.out().u1(kind).u1(SUSPEND_ALL).u4(modifiers).bytes(encoded, 0, encoded.length).bytes();
        return ok(EVENT_REQUEST, SET, body).u4();
    }

    /** A ClassPrepare request, suspending every thread, for the class named {@code name} (a ClassMatch pattern). */
    int requestPrepare(String name) throws IOException {
        return request(CLASS_PREPARE, 1, data.out().u1(MOD_CLASS_MATCH).string(name).bytes());
    }

    /** The loaded classes with this signature, one per class loader that defined one. */
    List<Long> classesBySignature(String signature) throws IOException {
        JdwpData.In in = ok(VIRTUAL_MACHINE, CLASSES_BY_SIGNATURE, data.out().string(signature).bytes());
        List<Long> types = new ArrayList<>();
        for (int n = in.u4(); n > 0; n--) {
            in.u1();
            types.add(in.type());
            in.u4();
        }
        return types;
    }

    String signature(long type) throws IOException {
        return ok(REFERENCE_TYPE, SIGNATURE, data.out().type(type).bytes()).string();
    }

    /** A class's methods ({@code methods}) or fields, as the JVM lists them. */
    List<JdwpIds.Member> members(long type, boolean methods) throws IOException {
        return members(call(REFERENCE_TYPE, methods ? METHODS : FIELDS, data.out().type(type).bytes()), methods);
    }

    /** The members in a reply to ReferenceType.Methods or Fields; none if it failed (a class not prepared). */
    List<JdwpIds.Member> members(JdwpPacket reply, boolean methods) {
        List<JdwpIds.Member> list = new ArrayList<>();
        if (reply == null || reply.errorCode() != 0) {
            return list;
        }
        JdwpData.In in = data.in(reply.data());
        for (int n = in.u4(); n > 0; n--) {
            long id = methods ? in.method() : in.field();
            String name = in.string();
            String signature = in.string();
            in.u4();
            list.add(new JdwpIds.Member(id, name, signature));
        }
        return list;
    }

    List<Long> allThreads() throws IOException {
        JdwpData.In in = ok(VIRTUAL_MACHINE, ALL_THREADS, new byte[0]);
        List<Long> threads = new ArrayList<>();
        for (int n = in.u4(); n > 0; n--) {
            threads.add(in.object());
        }
        return threads;
    }

    String threadName(long thread) throws IOException {
        return ok(THREAD_REFERENCE, NAME, data.out().object(thread).bytes()).string();
    }

    /** Resumes what an event set suspended: every thread, the event's thread, or nothing. */
    void resumeAfter(int suspendPolicy, long thread) throws IOException {
        if (suspendPolicy == SUSPEND_ALL) {
            resume();
        } else if (suspendPolicy == SUSPEND_EVENT_THREAD) {
            ok(THREAD_REFERENCE, THREAD_RESUME, data.out().object(thread).bytes());
        }
    }

    void clear(int kind, int request) throws IOException {
        ok(EVENT_REQUEST, CLEAR, data.out().u1(kind).u4(request).bytes());
    }

    /** The data of ClassType.InvokeMethod of a static method without arguments, run on {@code thread} alone. */
    byte[] invokeAlone(long type, long thread, long method) {
        return data.out().type(type).object(thread).method(method).u4(0).u4(INVOKE_SINGLE_THREADED).bytes();
    }

    /** Whether a reply to an invocation of a {@code void} method says it returned normally. */
    boolean returned(JdwpPacket reply) {
        if (reply == null || reply.errorCode() != 0) {
            return false;
        }
        JdwpData.In in = data.in(reply.data());
        in.u1(); // the return value's tag: void, no value
        in.u1(); // the exception's tag
        return in.object() == 0;
    }

    void setStatic(long type, long field, boolean value) throws IOException {
        ok(CLASS_TYPE, SET_VALUES, data.out().type(type).u4(1).field(field).u1(value ? 1 : 0).bytes());
    }

    /** Whether some thread is suspended, by the debugger or by an event it asked for. */
    boolean anySuspended() throws IOException {
        JdwpData.In threads = ok(VIRTUAL_MACHINE, ALL_THREADS, new byte[0]);
        for (int n = threads.u4(); n > 0; n--) {
            JdwpPacket status = call(THREAD_REFERENCE, STATUS, data.out().object(threads.object()).bytes());
            if (status.errorCode() == 0) {
                JdwpData.In in = data.in(status.data());
                in.u4();
                if ((in.u4() & SUSPEND_STATUS_SUSPENDED) != 0) {
                    return true;
                }
            }
        }
        return false;
    }

    @Override
    public void close() throws IOException {
        link.close();
    }
}
