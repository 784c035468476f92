package dev.reprise.cli.debug;

import static dev.reprise.cli.debug.Jdwp.*;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;

/**
 * The debugger's JDWP identifiers ("outer") and the replay JVM's ("inner") once the proxy has gone
 * back: the debugger keeps the IDs the first JVM gave it, and every later JVM numbers its classes,
 * methods, fields, threads and objects anew. Generation 0, the first JVM, needs no instance: the
 * proxy forwards its packets unchanged.
 * <ul>
 * <li>Classes are matched by signature, methods and fields by their class, name and signature,
 *     threads by name in the order the JVM lists them. What the debugger may hold is kept over all
 *     generations ({@link Known}); each generation binds it to its own IDs when first used, since
 *     an earlier moment may not have loaded a class or started a thread yet: until then it is stale.
 * <li>Objects are not matched: an object of generation {@code g} is shown as its JVM's ID with
 *     {@code g} in the top byte, so an object of an earlier generation answers INVALID_OBJECT and
 *     never reaches an unrelated object of the new JVM (HotSpot numbers objects from 1 up, so the
 *     top byte is free). Frames are tagged alike. A class or thread first seen in a later generation
 *     gets such a tagged ID too.
 * <li>Methods and fields first seen in a later generation keep their JVM's ID unless an earlier
 *     generation used it.
 * </ul>
 * Thread-safety: the proxy's readers of both connections, its translator and the going-back
 * request all translate, and the generations share {@link Known}: every method holds its lock,
 * one for the whole session. A method may wait for the JVM's reply to a query while it holds the
 * lock: the JVM's reader, which completes the query, never takes it.
 */
final class JdwpIds {
    private static final int GENERATION_SHIFT = 56;
    private static final long LOCAL = (1L << GENERATION_SHIFT) - 1;
    private static final int CLASS_STATUS_PREPARED = 2;

    static final int INVALID_THREAD = 10;
    static final int INVALID_OBJECT = 20;
    static final int INVALID_CLASS = 21;
    static final int INVALID_METHODID = 23;
    static final int INVALID_FIELDID = 25;
    static final int INVALID_FRAMEID = 30;

    /** An identifier this generation has no counterpart for: the JDWP error to answer, and a class not loaded yet. */
    static final class Stale extends Exception {
        final int error;
        /** The outer ID of the class the JVM has not loaded yet, else 0. */
        final long unloaded;

        Stale(int error, long unloaded) {
            super("stale JDWP id (error " + error + ")", null, false, false);
            this.error = error;
            this.unloaded = unloaded;
        }
    }

    /** A method or field as ReferenceType.Methods or Fields lists it. */
    record Member(long id, String name, String signature) {
    }

    /** What the debugger may hold, by outer ID: kept from generation to generation. */
    private static final class Known {
        final Map<Long, String> typeSignature = new HashMap<>();
        /** Per class, its methods ({@code m NAME SIG}) and fields ({@code f NAME SIG}). */
        final Map<Long, Map<String, Long>> members = new HashMap<>();
        final Map<Long, Long> methodType = new HashMap<>();
        final Map<Long, Long> fieldType = new HashMap<>();
        final Map<Long, String> fieldSignature = new HashMap<>();
        /** In the order the JVMs listed them. */
        final Map<Long, String> threadName = new LinkedHashMap<>();
        long nextMember = 0x7e00000000000000L;
    }

    /** Both directions of one kind of identifier in this generation. */
    private static final class Bound {
        final Map<Long, Long> in = new HashMap<>();
        final Map<Long, Long> out = new HashMap<>();

        void put(long outer, long inner) {
            in.put(outer, inner);
            out.put(inner, outer);
        }
    }

    final int generation;
    private final Known known;
    private final VmSide vm;
    private final Bound types = new Bound();
    private final Bound methods = new Bound();
    private final Bound fields = new Bound();
    private final Bound threads = new Bound();
    private final Map<Integer, Integer> requestIn = new HashMap<>();
    private final Map<Integer, Integer> requestOut = new HashMap<>();
    private int nextRequest;

    private JdwpIds(int generation, Known known, VmSide vm, int nextRequest) {
        this.generation = generation;
        this.known = known;
        this.vm = vm;
        this.nextRequest = nextRequest;
    }

    /**
     * The next generation's IDs: what the debugger may hold is read from the {@code old} JVM
     * (translated by {@code current}, null for generation 0) before it goes; {@code fresh} is the
     * new JVM. {@code nextRequest} is above every request ID the debugger has been given.
     */
    static JdwpIds next(JdwpIds current, VmSide old, VmSide fresh, int nextRequest) throws IOException {
        Known known = current == null ? new Known() : current.known;
        JdwpIds next = new JdwpIds(current == null ? 1 : current.generation + 1, known, fresh, nextRequest);
        JdwpData.In classes = old.ok(VIRTUAL_MACHINE, ALL_CLASSES, new byte[0]);
        List<Long> prepared = new ArrayList<>();
        List<String> signatures = new ArrayList<>();
        for (int n = classes.u4(); n > 0; n--) {
            classes.u1();
            long type = classes.type();
            String signature = classes.string();
            if ((classes.u4() & CLASS_STATUS_PREPARED) != 0) {
                prepared.add(type);
                signatures.add(signature);
            }
        }
        // One query per class and kind of member, all sent before the first reply is read.
        int count = prepared.size();
        List<List<Member>> methodLists = new ArrayList<>(Collections.nCopies(count, null));
        List<List<Member>> fieldLists = new ArrayList<>(Collections.nCopies(count, null));
        CountDownLatch done = new CountDownLatch(2 * count);
        for (int i = 0; i < count; i++) {
            int at = i;
            long type = prepared.get(i);
            old.callThen(REFERENCE_TYPE, METHODS, old.data().out().type(type).bytes(), r -> {
                methodLists.set(at, old.members(r, true));
                done.countDown();
            });
            old.callThen(REFERENCE_TYPE, FIELDS, old.data().out().type(type).bytes(), r -> {
                fieldLists.set(at, old.members(r, false));
                done.countDown();
            });
        }
        try {
            done.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted");
        }
        synchronized (known) {
            for (int i = 0; i < count; i++) {
                long inner = prepared.get(i);
                if (current == null) {
                    known.typeSignature.put(inner, signatures.get(i));
                    Map<String, Long> members = known.members.computeIfAbsent(inner, t -> new HashMap<>());
                    for (Member m : methodLists.get(i)) {
                        members.put("m " + m.name() + " " + m.signature(), m.id());
                        known.methodType.put(m.id(), inner);
                    }
                    for (Member f : fieldLists.get(i)) {
                        members.put("f " + f.name() + " " + f.signature(), f.id());
                        known.fieldType.put(f.id(), inner);
                        known.fieldSignature.put(f.id(), f.signature());
                    }
                } else if (!current.types.out.containsKey(inner)) {
                    current.bindType(inner, signatures.get(i), methodLists.get(i), fieldLists.get(i), 0);
                }
            }
            for (long thread : old.allThreads()) {
                long outer = current == null ? thread : current.threadOut(thread);
                try {
                    known.threadName.putIfAbsent(outer, old.threadName(thread));
                } catch (IOException e) {
                    // it ended since it was listed: nothing of it to find again
                }
            }
        }
        return next;
    }

    /** The signatures of classes the debugger knows that this JVM has not loaded (yet). */
    List<String> notLoaded() throws IOException {
        Set<String> loaded = new HashSet<>();
        JdwpData.In in = vm.ok(VIRTUAL_MACHINE, ALL_CLASSES, new byte[0]);
        for (int n = in.u4(); n > 0; n--) {
            in.u1();
            in.type();
            loaded.add(in.string());
            in.u4();
        }
        synchronized (known) {
            return known.typeSignature.values().stream().distinct().filter(s -> !loaded.contains(s)).toList();
        }
    }

    /** Binds every thread of the JVM that the debugger knows by name, in the JVM's order. */
    void bindThreads() throws IOException {
        synchronized (known) {
            for (long inner : vm.allThreads()) {
                threadOut(inner);
            }
        }
    }

    /** The debugger's request for the JVM's; an ID it has not seen is given a new one. 0, no request, stays. */
    int requestOut(int inner) {
        synchronized (known) {
            if (inner == 0) {
                return 0;
            }
            Integer outer = requestOut.get(inner);
            if (outer == null) {
                outer = nextRequest++;
                bindRequest(outer, inner);
            }
            return outer;
        }
    }

    /** An id for a request the proxy accepts for the debugger before the JVM has it. */
    int newRequest() {
        synchronized (known) {
            return nextRequest++;
        }
    }

    /** The JVM's request for the debugger's, or 0 (which a Clear ignores) if this JVM has none. */
    int requestIn(int outer) {
        synchronized (known) {
            return requestIn.getOrDefault(outer, 0);
        }
    }

    void bindRequest(int outer, int inner) {
        synchronized (known) {
            requestIn.put(outer, inner);
            requestOut.put(inner, outer);
        }
    }

    /** The signature of a class the debugger holds, or null. */
    String signature(long outerType) {
        synchronized (known) {
            return known.typeSignature.get(outerType);
        }
    }

    /**
     * VirtualMachine.DisposeObjects's data in the JVM's IDs, without the objects of earlier
     * generations: they went with their JVM. JDI sends the command on its own, for objects the
     * debugger no longer holds, and fails the next call of the debugger's if it is refused.
     */
    byte[] disposable(byte[] data) {
        ByteBuffer in = ByteBuffer.wrap(data);
        List<long[]> live = new ArrayList<>();
        for (int n = in.getInt(); n > 0; n--) {
            long object = in.getLong();
            int count = in.getInt();
            try {
                live.add(new long[] {objectIn(object), count});
            } catch (Stale e) {
                // of an earlier JVM
            }
        }
        ByteBuffer out = ByteBuffer.allocate(4 + live.size() * 12).putInt(live.size());
        for (long[] l : live) {
            out.putLong(l[0]).putInt((int) l[1]);
        }
        return out.array();
    }

    /** From the debugger to the JVM. */
    final JdwpRewrite.IdMap toVm = new JdwpRewrite.IdMap() {
        public long object(long id) throws Stale {
            return objectIn(id);
        }

        public long thread(long id) throws Stale {
            return threadIn(id);
        }

        public long type(long id) throws Stale {
            return typeIn(id);
        }

        public long method(long id) throws Stale {
            return memberIn(id, methods, known.methodType, INVALID_METHODID);
        }

        public long field(long id) throws Stale {
            return memberIn(id, fields, known.fieldType, INVALID_FIELDID);
        }

        public long frame(long id) throws Stale {
            return local(id, INVALID_FRAMEID);
        }

        public int request(int id) {
            return requestIn(id);
        }

        public byte fieldTag(long field) throws Stale {
            String signature = fieldSignature(field);
            if (signature == null) {
                throw new Stale(INVALID_FIELDID, 0);
            }
            return (byte) signature.charAt(0);
        }

        public byte arrayTag(long array) throws Stale {
            return elementTag(objectIn(array));
        }
    };

    /** From the JVM to the debugger. */
    final JdwpRewrite.IdMap toDebugger = new JdwpRewrite.IdMap() {
        public long object(long id) {
            return objectOut(id);
        }

        public long thread(long id) {
            return threadOut(id);
        }

        public long type(long id) {
            return typeOut(id);
        }

        public long method(long id) {
            return memberOut(id, methods);
        }

        public long field(long id) {
            return memberOut(id, fields);
        }

        public long frame(long id) {
            return tagged(id);
        }

        public int request(int id) {
            return requestOut(id);
        }

        public byte fieldTag(long field) {
            throw new IllegalStateException("no reply holds untagged field values");
        }

        public byte arrayTag(long array) {
            throw new IllegalStateException("no reply holds untagged array values");
        }
    };

    private String fieldSignature(long outerField) {
        synchronized (known) {
            return known.fieldSignature.get(outerField);
        }
    }

    private long objectIn(long outer) throws Stale {
        synchronized (known) {
            if (outer == 0) {
                return 0;
            }
            Long thread = threads.in.get(outer);
            if (thread != null) {
                return thread;
            }
            return local(outer, known.threadName.containsKey(outer) ? INVALID_THREAD : INVALID_OBJECT);
        }
    }

    private long objectOut(long inner) {
        synchronized (known) {
            if (inner == 0) {
                return 0;
            }
            Long thread = threads.out.get(inner);
            return thread != null ? thread : tagged(inner);
        }
    }

    private long threadIn(long outer) throws Stale {
        synchronized (known) {
            if (outer == 0) {
                return 0;
            }
            Long inner = threads.in.get(outer);
            if (inner == null && known.threadName.containsKey(outer)) {
                try {
                    bindThreads(); // it may have started since
                } catch (IOException e) {
                    throw new Stale(INVALID_THREAD, 0);
                }
                inner = threads.in.get(outer);
            }
            if (inner != null) {
                return inner;
            }
            return local(outer, INVALID_THREAD);
        }
    }

    private long threadOut(long inner) {
        synchronized (known) {
            if (inner == 0) {
                return 0;
            }
            Long outer = threads.out.get(inner);
            if (outer != null) {
                return outer;
            }
            String name;
            try {
                name = vm.threadName(inner);
            } catch (IOException e) {
                name = null;
            }
            long chosen = tagged(inner);
            for (Map.Entry<Long, String> t : known.threadName.entrySet()) {
                if (t.getValue().equals(name) && !threads.in.containsKey(t.getKey())) {
                    chosen = t.getKey();
                    break;
                }
            }
            threads.put(chosen, inner);
            if (name != null) {
                known.threadName.putIfAbsent(chosen, name);
            }
            return chosen;
        }
    }

    private long typeIn(long outer) throws Stale {
        synchronized (known) {
            if (outer == 0) {
                return 0;
            }
            Long inner = types.in.get(outer);
            if (inner != null) {
                return inner;
            }
            String signature = known.typeSignature.get(outer);
            if (signature == null) {
                throw new Stale(INVALID_CLASS, 0);
            }
            try {
                for (long candidate : vm.classesBySignature(signature)) {
                    if (!types.out.containsKey(candidate)) {
                        bindType(candidate, signature, vm.members(candidate, true), vm.members(candidate, false), outer);
                        return candidate;
                    }
                }
            } catch (IOException e) {
                // as if not loaded: the JVM is going
            }
            throw new Stale(INVALID_CLASS, outer);
        }
    }

    private long typeOut(long inner) {
        synchronized (known) {
            if (inner == 0) {
                return 0;
            }
            Long outer = types.out.get(inner);
            if (outer != null) {
                return outer;
            }
            try {
                return bindType(inner, vm.signature(inner), vm.members(inner, true), vm.members(inner, false), 0);
            } catch (IOException e) {
                return tagged(inner); // the JVM is going; nothing will use it
            }
        }
    }

    /**
     * Binds the JVM's class and its members to the debugger's (to {@code outer} if not 0, else to
     * the first unbound class of that signature, else to a new ID); returns the debugger's ID.
     * The caller holds {@link #known}'s lock.
     */
    private long bindType(long inner, String signature, List<Member> methodList, List<Member> fieldList,
            long outer) {
        if (outer == 0) {
            for (Map.Entry<Long, String> t : known.typeSignature.entrySet()) {
                if (t.getValue().equals(signature) && !types.in.containsKey(t.getKey())) {
                    outer = t.getKey();
                    break;
                }
            }
        }
        if (outer == 0) {
            outer = tagged(inner);
            known.typeSignature.put(outer, signature);
        }
        types.put(outer, inner);
        Map<String, Long> members = known.members.computeIfAbsent(outer, t -> new HashMap<>());
        for (Member m : methodList) {
            long id = members.computeIfAbsent("m " + m.name() + " " + m.signature(), k -> newMember(m.id(), known.methodType));
            methods.put(id, m.id());
            known.methodType.put(id, outer);
        }
        for (Member f : fieldList) {
            long id = members.computeIfAbsent("f " + f.name() + " " + f.signature(), k -> newMember(f.id(), known.fieldType));
            fields.put(id, f.id());
            known.fieldType.put(id, outer);
            known.fieldSignature.put(id, f.signature());
        }
        return outer;
    }

    /** An outer ID for a member first seen now: the JVM's own unless an earlier generation used it. */
    private long newMember(long inner, Map<Long, Long> used) {
        if (!used.containsKey(inner)) {
            return inner;
        }
        long id;
        do {
            id = known.nextMember++;
        } while (used.containsKey(id));
        return id;
    }

    private long memberIn(long outer, Bound bound, Map<Long, Long> declaring, int error) throws Stale {
        synchronized (known) {
            Long inner = bound.in.get(outer);
            if (inner == null) {
                Long type = declaring.get(outer);
                if (type == null) {
                    throw new Stale(error, 0);
                }
                typeIn(type); // binds its members
                inner = bound.in.get(outer);
                if (inner == null) {
                    throw new Stale(error, 0);
                }
            }
            return inner;
        }
    }

    private long memberOut(long inner, Bound bound) {
        synchronized (known) {
            Long outer = bound.out.get(inner);
            return outer != null ? outer : inner; // its class, listed before it in every layout, is bound
        }
    }

    private byte elementTag(long innerArray) throws Stale {
        try {
            JdwpData.In type = vm.ok(OBJECT_REFERENCE, OBJECT_TYPE, vm.data().out().object(innerArray).bytes());
            type.u1();
            return (byte) vm.signature(type.type()).charAt(1);
        } catch (IOException e) {
            throw new Stale(INVALID_OBJECT, 0);
        }
    }

    private long tagged(long inner) {
        return (long) generation << GENERATION_SHIFT | (inner & LOCAL);
    }

    /** An ID this generation tagged, untagged; an earlier generation's is stale. */
    private long local(long outer, int error) throws Stale {
        if (outer >>> GENERATION_SHIFT != generation) {
            throw new Stale(error, 0);
        }
        return outer & LOCAL;
    }
}
