package dev.reprise.agent.ops.classes;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.zip.CRC32C;

import dev.reprise.agent.runtime.events.Divergence;
import dev.reprise.agent.runtime.events.Ev;
import dev.reprise.agent.runtime.events.Exceptions;
import dev.reprise.agent.runtime.events.Op;
import dev.reprise.agent.runtime.events.Rt;
import dev.reprise.agent.runtime.events.Session;

/**
 * A call of a native method of the program's, through the wrapper {@code instrument/NativeMethodWrapper}
 * gives it. A method of a library that reaches the system ({@link SystemLibraries}) is an event:
 * recording runs it and logs what it gave back (its result or exception, what it wrote into the
 * arrays and direct buffers it was passed, and the primitive and string fields of its receiver it
 * changed, where JNI code keeps its handles); a replay runs none of it and gives that back. Any
 * other native method runs live, as before.
 *
 * <p>The native code runs inside the event, so the Java it calls back (a library's error
 * callbacks) runs unrecorded, and on replay not at all: what such callbacks change beyond the
 * exception they make is not replayed. A call made inside another event, or an initializer's
 * bracket, cannot be one: recording runs it live, and a replay skips it, returning zero or null,
 * since the library's state it would work on exists only in the recording's process.
 */
public final class NativeCalls {
    /** What {@link #claim} tells the wrapper: run the native method unrecorded, an event is claimed, or skip it. */
    public static final int LIVE = 0;
    public static final int CLAIMED = 1;
    /** Replaying a call that is no event: return zero or null without running it. */
    public static final int SKIP = 3;
    /** What {@link #begin} tells it: run and record the call, or give back the recording's. */
    public static final int RECORD = 1;
    public static final int REPLAY = 2;
    private static final Op CALL = Op.named("native.call");
    /**
     * Per method ({@link #key}), whether its library reaches the system: the answer,
     * in its lowest bit, made with as many such libraries loaded as the rest says. A negative
     * answer made before the method's library loaded is made again.
     */
    private static final ConcurrentHashMap<String, Integer> DECIDED = new ConcurrentHashMap<>();
    /** The receiver's field values as a recorded call began, for the fields it changed. */
    private static final ThreadLocal<Object[]> BEFORE = new ThreadLocal<>();

    private NativeCalls() {
    }

    /** Whether the program loaded a library that reaches the system: until it does, a wrapper calls straight through. */
    public static boolean any() {
        return SystemLibraries.any;
    }

    /** How a wrapper names its method to the hooks, one constant per method: {@code owner.name(desc)}, internal names. */
    public static String key(String owner, String method, String desc) {
        return owner + '.' + method + desc;
    }

    /**
     * The wrapper's first call, before it boxes anything: {@link #LIVE} for a method whose library
     * does not reach the system (or a recording's call inside another event), {@link #SKIP} for a
     * replay's call inside another event, else {@link #CLAIMED}, and the wrapper begins the event.
     */
    public static int claim(String key) {
        // The decision's own tables are Reprise's: their synchronization is no event of the program's.
        Rt.suppress();
        boolean event;
        try {
            event = reachesSystem(key);
        } finally {
            Rt.unsuppress();
        }
        if (!event) {
            return LIVE;
        }
        if (!Rt.claim()) {
            Session session = Session.current();
            return Rt.active && session != null && session.replaying() ? SKIP : LIVE;
        }
        return CLAIMED;
    }

    /** Begins the claimed call's event, its digest the arguments'; whether it is recorded or replayed. */
    public static int begin(int site, Object self, Object[] args) {
        Ev ev = Ev.begin(CALL, site, digest(args));
        if (ev.recording() && self != null) {
            BEFORE.set(NativeFields.values(self));
        }
        return ev.recording() ? RECORD : REPLAY;
    }

    /** Recording: the native method returned {@code result} (boxed; null for void); logs what it gave back and returns it. */
    public static Object returned(Object result, Object self, Object[] args) {
        Ev ev = Rt.current().ev;
        try {
            ev.failure(null);
            NativeValues.write(ev, result);
            if (!NativeValues.codable(result)) {
                Divergence.message("a native method returned a " + result.getClass().getName()
                        + ", which a replay cannot make without running the library: the replay stops there");
            }
            for (Object a : args) {
                if (NativeValues.writable(a)) {
                    NativeValues.writeContent(ev, a);
                }
            }
            if (self != null) {
                NativeFields.writeChanged(ev, self, BEFORE.get());
                BEFORE.remove();
            }
            return result;
        } finally {
            ev.end();
        }
    }

    /**
     * Recording: the native method threw {@code t}, most often an exception of the library's own
     * that its native code had Java make (SQLite's, with its error code); logs it with its fields
     * and gives it back for the wrapper to throw.
     */
    public static Throwable threw(Throwable t, String key) {
        BEFORE.remove();
        Ev ev = Rt.current().ev;
        try {
            plainTrace(t, key);
            ev.failure(t);
            NativeFields.writeException(ev, t);
            return t;
        } finally {
            ev.end();
        }
    }

    /**
     * Replaying: what the recorded call gave back (boxed; null for void), its arrays, buffers and
     * receiver's fields filled in as the native code left them; throws what it threw.
     */
    public static Object replayed(Object self, Object[] args, String key) throws Throwable {
        Ev ev = Rt.current().ev;
        Throwable recorded;
        try {
            recorded = ev.failure(null);
            if (recorded != null) {
                NativeFields.readException(ev, recorded, key);
            } else {
                Object result = NativeValues.read(ev, key);
                for (Object a : args) {
                    if (NativeValues.writable(a) && !NativeValues.readContent(ev, a)) {
                        Divergence.mismatch("native call", named(key) + " was passed an array or buffer of another size than when recorded");
                    }
                }
                if (self != null) {
                    NativeFields.readChanged(ev, self, key);
                }
                return result;
            }
        } catch (Throwable t) {
            throw ev.threw(t);
        } finally {
            ev.end();
        }
        throw recorded; // a value of the event, not what the hook threw
    }

    /**
     * The trace a plain run gives the exception: the native frame under the method's own name,
     * without the wrapper's frame below it.
     */
    private static void plainTrace(Throwable t, String key) {
        String[] parts = parts(key);
        String owner = parts[0].replace('/', '.');
        String method = parts[1];
        StackTraceElement[] trace = t.getStackTrace();
        String renamed = dev.reprise.agent.instrument.Transformer.NATIVE_PREFIX + method;
        for (int i = 0; i < trace.length; i++) {
            StackTraceElement e = trace[i];
            if (e.getClassName().equals(owner) && e.getMethodName().equals(renamed)) {
                List<StackTraceElement> plain = new ArrayList<>(List.of(trace));
                plain.set(i, Exceptions.renamed(e, method));
                if (i + 1 < trace.length && trace[i + 1].getClassName().equals(owner) && trace[i + 1].getMethodName().equals(method)) {
                    plain.remove(i + 1);
                }
                t.setStackTrace(plain.toArray(new StackTraceElement[0]));
                return;
            }
        }
    }

    private static boolean reachesSystem(String key) {
        int libraries = SystemLibraries.count();
        Integer known = DECIDED.get(key);
        if (known != null && ((known & 1) == 1 || known >>> 1 == libraries)) {
            return (known & 1) == 1;
        }
        String[] parts = parts(key);
        boolean owns = SystemLibraries.owns(parts[0], parts[1], parts[2]);
        DECIDED.put(key, libraries << 1 | (owns ? 1 : 0));
        return owns;
    }

    /** A {@link #key}'s owner, method name and descriptor; parsed only to decide or to report, never per call. */
    private static String[] parts(String key) {
        int paren = key.indexOf('(');
        int dot = key.lastIndexOf('.', paren);
        return new String[] {key.substring(0, dot), key.substring(dot + 1, paren), key.substring(paren)};
    }

    /** The method a {@link #key} names, as a report names it: {@code pkg.Class.method}. */
    static String named(String key) {
        return key.substring(0, key.indexOf('(')).replace('/', '.');
    }

    /** The arguments' digest, checked on replay: what the program passed, by value (arrays by content). */
    private static int digest(Object[] args) {
        CRC32C crc = new CRC32C();
        for (Object a : args) {
            if (a == null) {
                crc.update(0);
            } else if (a instanceof String s) {
                crc.update(s.getBytes(java.nio.charset.StandardCharsets.UTF_8));
            } else if (a instanceof byte[] b) {
                crc.update(b);
            } else if (a instanceof Number || a instanceof Boolean || a instanceof Character) {
                long v = a instanceof Double d ? Double.doubleToRawLongBits(d) : a instanceof Float f ? Float.floatToRawIntBits(f)
                        : a instanceof Boolean z ? (z ? 1 : 0) : a instanceof Character c ? c : ((Number) a).longValue();
                for (int shift = 0; shift < 64; shift += 8) {
                    crc.update((int) (v >>> shift));
                }
            } else if (a.getClass().isArray()) {
                crc.update(java.lang.reflect.Array.getLength(a));
            } else {
                crc.update(1);
            }
        }
        return (int) crc.getValue();
    }

    /** The wrapper's unboxing of a replayed result: null, a call that was no event, is zero. */
    public static long asLong(Object v) {
        return v == null ? 0 : ((Number) v).longValue();
    }

    public static int asInt(Object v) {
        return v == null ? 0 : v instanceof Character c ? c : v instanceof Boolean z ? (z ? 1 : 0) : ((Number) v).intValue();
    }

    public static float asFloat(Object v) {
        return v == null ? 0 : ((Number) v).floatValue();
    }

    public static double asDouble(Object v) {
        return v == null ? 0 : ((Number) v).doubleValue();
    }
}
