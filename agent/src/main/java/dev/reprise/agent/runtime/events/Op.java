package dev.reprise.agent.runtime.events;

import java.util.zip.CRC32;

/**
 * An intercepted operation's identity in the log. The id is derived from the name, so it is the
 * same in every JVM running this version of Reprise; {@code Catalogue} checks at start-up that no
 * two declared names share an id.
 */
public final class Op {
    /** Ids fit in 13 bits so that a header's first varint, id and exception flag, takes two bytes. */
    static final int ID_SPACE = 8191;

    public final String name;
    public final int id;
    /** For an ordered operation: the twin id its relaxed events are logged under, else null. */
    public final Op relaxed;

    private Op(String name, Op relaxed) {
        this.name = name;
        this.relaxed = relaxed;
        CRC32 crc = new CRC32();
        crc.update(name.getBytes(java.nio.charset.StandardCharsets.UTF_8));
        this.id = (int) (crc.getValue() % ID_SPACE) + 1;
    }

    private static final java.util.Map<Integer, String> NAMES = new java.util.HashMap<>();

    /** The operation called {@code name}; declaring two names with one id is a start-up error. */
    public static Op named(String name) {
        return register(new Op(name, null));
    }

    /**
     * An operation with a twin, {@code name.relaxed}, for its events that code no value and are
     * counted rather than written ({@code Ev}): an ordered synchronization operation's relaxed
     * events, or an operation's usual outcome ({@link Ev#counted}).
     */
    public static Op withRelaxedTwin(String name) {
        return register(new Op(name, register(new Op(name + ".relaxed", null))));
    }

    private static Op register(Op op) {
        String name = op.name;
        synchronized (NAMES) {
            String prior = NAMES.putIfAbsent(op.id, name);
            if (prior != null && !prior.equals(name)) {
                throw new IllegalStateException("operations " + prior + " and " + name + " share id " + op.id);
            }
        }
        return op;
    }

    /** Every operation declared so far, by id. */
    public static java.util.Map<Integer, String> names() {
        synchronized (NAMES) {
            return new java.util.TreeMap<>(NAMES);
        }
    }

    /** The name of the operation with {@code id}, for reports. */
    static String nameOf(int id) {
        synchronized (NAMES) {
            String n = NAMES.get(id);
            return n != null ? n : "operation #" + id;
        }
    }

    @Override
    public String toString() {
        return name;
    }
}
