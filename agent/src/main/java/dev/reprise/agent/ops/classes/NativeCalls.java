package dev.reprise.agent.ops.classes;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.zip.CRC32C;

import jdk.internal.misc.Unsafe;

import dev.reprise.agent.runtime.events.Divergence;
import dev.reprise.agent.runtime.events.Ev;
import dev.reprise.agent.runtime.events.Exceptions;
import dev.reprise.agent.runtime.events.Op;
import dev.reprise.agent.runtime.events.Rt;
import dev.reprise.agent.runtime.events.Session;
import dev.reprise.agent.runtime.jdk.JdkLoaders;

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
    /** What the wrapper does: run the native method unrecorded, run and record it, or give back the recording's. */
    public static final int LIVE = 0;
    public static final int RECORD = 1;
    public static final int REPLAY = 2;
    /** Replaying a call that was no event: return zero or null without running it. */
    public static final int SKIP = 3;
    private static final Op CALL = Op.named("native.call");
    private static final Unsafe UNSAFE = Unsafe.getUnsafe();
    /**
     * Per method ({@code owner.name(desc)}), whether its library reaches the system: the answer,
     * in its lowest bit, made with as many such libraries loaded as the rest says. A negative
     * answer made before the method's library loaded is made again.
     */
    private static final ConcurrentHashMap<String, Integer> DECIDED = new ConcurrentHashMap<>();
    /** Per class, the fields of its instances native code may set: primitive or string, declared by the program's classes. */
    private static final ClassValue<Field[]> FIELDS = new ClassValue<>() {
        @Override
        protected Field[] computeValue(Class<?> type) {
            return kept(type);
        }
    };
    /** Per exception class, the fields below {@code Throwable}'s that a replay sets: primitive, string or enum. */
    private static final ClassValue<Field[]> EXCEPTION_FIELDS = new ClassValue<>() {
        @Override
        protected Field[] computeValue(Class<?> type) {
            List<Field> fields = new ArrayList<>();
            for (Class<?> c = type; c != Throwable.class; c = c.getSuperclass()) {
                for (Field f : c.getDeclaredFields()) {
                    if (!Modifier.isStatic(f.getModifiers()) && (f.getType().isPrimitive() || f.getType() == String.class
                            || f.getType().isEnum())) {
                        fields.add(f);
                    }
                }
            }
            return fields.toArray(new Field[0]);
        }
    };
    /** The receiver's field values as a recorded call began, for the fields it changed. */
    private static final ThreadLocal<Object[]> BEFORE = new ThreadLocal<>();

    private NativeCalls() {
    }

    /** Whether the program loaded a library that reaches the system: until it does, a wrapper calls straight through. */
    public static boolean any() {
        return SystemLibraries.any;
    }

    /**
     * The wrapper's first call: which way the call goes ({@link #LIVE}, {@link #RECORD},
     * {@link #REPLAY}). Recording or replaying, the call's event is open when this returns.
     */
    public static int begin(int site, String owner, String method, String desc, Object self, Object[] args) {
        // The decision's own tables are Reprise's: their synchronization is no event of the program's.
        Rt.suppress();
        boolean event;
        try {
            event = reachesSystem(owner, method, desc);
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
        Ev ev = Ev.begin(CALL, site, digest(args));
        if (ev.recording() && self != null) {
            BEFORE.set(values(self));
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
                writeChangedFields(ev, self);
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
    public static Throwable threw(Throwable t, String owner, String method) {
        BEFORE.remove();
        Ev ev = Rt.current().ev;
        try {
            plainTrace(t, owner.replace('/', '.'), method);
            ev.failure(t);
            writeFields(ev, t);
            return t;
        } finally {
            ev.end();
        }
    }

    /**
     * Replaying: what the recorded call gave back (boxed; null for void), its arrays, buffers and
     * receiver's fields filled in as the native code left them; throws what it threw. A call that
     * was no event returns null, which the wrapper takes as zero.
     */
    public static Object replayed(int mode, Object self, Object[] args, String owner, String method) throws Throwable {
        if (mode == SKIP) {
            return null;
        }
        Ev ev = Rt.current().ev;
        String what = owner.replace('/', '.') + "." + method;
        Throwable recorded;
        try {
            recorded = ev.failure(null);
            if (recorded != null) {
                readFields(ev, recorded);
            } else {
                Object result = NativeValues.read(ev, what);
                for (Object a : args) {
                    if (NativeValues.writable(a) && !NativeValues.readContent(ev, a)) {
                        Divergence.mismatch("native call", what + " was passed an array or buffer of another size than when recorded");
                    }
                }
                if (self != null) {
                    readChangedFields(ev, self);
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
    private static void plainTrace(Throwable t, String owner, String method) {
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

    /** Recording: an exception's own fields, which its message does not carry (an error code). */
    private static void writeFields(Ev ev, Throwable t) {
        Field[] fields = EXCEPTION_FIELDS.get(t.getClass());
        ev.i(fields.length);
        for (Field f : fields) {
            NativeValues.write(ev, get(t, f));
        }
    }

    private static void readFields(Ev ev, Throwable t) {
        Field[] fields = EXCEPTION_FIELDS.get(t.getClass());
        int n = ev.i(0);
        for (int i = 0; i < n; i++) {
            Object v = NativeValues.read(ev, "a native method's exception");
            if (n == fields.length) {
                put(t, fields[i], v); // the recorded class: a fallback exception takes only the message
            }
        }
    }

    private static boolean reachesSystem(String owner, String method, String desc) {
        String key = owner + '.' + method + desc;
        int libraries = SystemLibraries.count();
        Integer known = DECIDED.get(key);
        if (known != null && ((known & 1) == 1 || known >>> 1 == libraries)) {
            return (known & 1) == 1;
        }
        boolean owns = SystemLibraries.owns(owner, method, desc);
        DECIDED.put(key, libraries << 1 | (owns ? 1 : 0));
        return owns;
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
                crc.update(a.toString().getBytes(java.nio.charset.StandardCharsets.ISO_8859_1));
            } else if (a.getClass().isArray()) {
                crc.update(java.lang.reflect.Array.getLength(a));
            } else {
                crc.update(1);
            }
        }
        return (int) crc.getValue();
    }

    private static void writeChangedFields(Ev ev, Object self) {
        Object[] before = BEFORE.get();
        BEFORE.remove();
        Object[] after = values(self);
        Field[] fields = FIELDS.get(self.getClass());
        for (int i = 0; i < fields.length; i++) {
            if (before == null || !java.util.Objects.equals(before[i], after[i])) {
                ev.i(i + 1);
                NativeValues.write(ev, after[i]);
            }
        }
        ev.i(0);
    }

    private static void readChangedFields(Ev ev, Object self) {
        Field[] fields = FIELDS.get(self.getClass());
        for (int i = ev.i(0); i != 0; i = ev.i(0)) {
            Object v = NativeValues.read(ev, "a native method's receiver field");
            if (i - 1 < fields.length) {
                put(self, fields[i - 1], v);
            }
        }
    }

    private static Object[] values(Object self) {
        Field[] fields = FIELDS.get(self.getClass());
        Object[] values = new Object[fields.length];
        for (int i = 0; i < fields.length; i++) {
            values[i] = get(self, fields[i]);
        }
        return values;
    }

    private static Field[] kept(Class<?> type) {
        List<Field> fields = new ArrayList<>();
        for (Class<?> c = type; c != null && !JdkLoaders.isJdk(c.getClassLoader()); c = c.getSuperclass()) {
            for (Field f : c.getDeclaredFields()) {
                if (!Modifier.isStatic(f.getModifiers()) && (f.getType().isPrimitive() || f.getType() == String.class)) {
                    fields.add(f);
                }
            }
        }
        return fields.toArray(new Field[0]);
    }

    private static Object get(Object o, Field f) {
        long at = UNSAFE.objectFieldOffset(f);
        Class<?> t = f.getType();
        return t == long.class ? (Object) UNSAFE.getLong(o, at) : t == int.class ? (Object) UNSAFE.getInt(o, at)
                : t == boolean.class ? (Object) UNSAFE.getBoolean(o, at) : t == byte.class ? (Object) UNSAFE.getByte(o, at)
                : t == short.class ? (Object) UNSAFE.getShort(o, at) : t == char.class ? (Object) UNSAFE.getChar(o, at)
                : t == float.class ? (Object) UNSAFE.getFloat(o, at) : t == double.class ? (Object) UNSAFE.getDouble(o, at)
                : UNSAFE.getReference(o, at);
    }

    private static void put(Object o, Field f, Object v) {
        long at = UNSAFE.objectFieldOffset(f);
        Class<?> t = f.getType();
        if (t == long.class) {
            UNSAFE.putLong(o, at, (Long) v);
        } else if (t == int.class) {
            UNSAFE.putInt(o, at, (Integer) v);
        } else if (t == boolean.class) {
            UNSAFE.putBoolean(o, at, (Boolean) v);
        } else if (t == byte.class) {
            UNSAFE.putByte(o, at, (Byte) v);
        } else if (t == short.class) {
            UNSAFE.putShort(o, at, (Short) v);
        } else if (t == char.class) {
            UNSAFE.putChar(o, at, (Character) v);
        } else if (t == float.class) {
            UNSAFE.putFloat(o, at, (Float) v);
        } else if (t == double.class) {
            UNSAFE.putDouble(o, at, (Double) v);
        } else {
            UNSAFE.putReference(o, at, v);
        }
        UNSAFE.fullFence(); // a volatile field's store, as JNI's would be seen
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
