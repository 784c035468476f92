package dev.reprise.agent.ops.classes;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

import jdk.internal.misc.Unsafe;

import dev.reprise.agent.runtime.events.Ev;
import dev.reprise.agent.runtime.jdk.JdkLoaders;

/**
 * The fields JNI code sets, in a recorded native call's event ({@link NativeCalls}): those of the
 * receiver that the call changed (where a library keeps the handle of its native object, such as
 * SQLite's database pointer), and those of the exception it threw that its message does not carry
 * (an error code). Read and written through {@code Unsafe}, as JNI does, final or not.
 */
final class NativeFields {
    private static final Unsafe UNSAFE = Unsafe.getUnsafe();
    /** Per class, its instances' fields native code may set: primitive or string, declared by the program's classes. */
    private static final ClassValue<Kept> RECEIVER = new ClassValue<>() {
        @Override
        protected Kept computeValue(Class<?> type) {
            List<Field> fields = new ArrayList<>();
            for (Class<?> c = type; c != null && !JdkLoaders.isJdk(c.getClassLoader()); c = c.getSuperclass()) {
                add(c, fields, false);
            }
            return new Kept(fields);
        }
    };
    /** Per exception class, the fields below {@code Throwable}'s: primitive, string or enum. */
    private static final ClassValue<Kept> EXCEPTION = new ClassValue<>() {
        @Override
        protected Kept computeValue(Class<?> type) {
            List<Field> fields = new ArrayList<>();
            for (Class<?> c = type; c != Throwable.class; c = c.getSuperclass()) {
                add(c, fields, true);
            }
            return new Kept(fields);
        }
    };

    /** A class's fields, with their types and offsets, found once per class rather than on every call. */
    private static final class Kept {
        final Class<?>[] types;
        final long[] offsets;

        Kept(List<Field> fields) {
            types = new Class<?>[fields.size()];
            offsets = new long[fields.size()];
            for (int i = 0; i < types.length; i++) {
                types[i] = fields.get(i).getType();
                offsets[i] = UNSAFE.objectFieldOffset(fields.get(i));
            }
        }
    }

    private NativeFields() {
    }

    /** The receiver's field values, taken as a recorded call begins. */
    static Object[] values(Object self) {
        Kept fields = RECEIVER.get(self.getClass());
        Object[] values = new Object[fields.offsets.length];
        for (int i = 0; i < values.length; i++) {
            values[i] = get(self, fields, i);
        }
        return values;
    }

    /** Recording: the receiver's fields whose values differ from {@code before} (null: all), each by its index. */
    static void writeChanged(Ev ev, Object self, Object[] before) {
        Object[] after = values(self);
        for (int i = 0; i < after.length; i++) {
            if (before == null || !Objects.equals(before[i], after[i])) {
                ev.i(i + 1);
                NativeValues.write(ev, after[i]);
            }
        }
        ev.i(0);
    }

    /** Replaying: sets the receiver's fields the recorded call of the method {@code key} names changed. */
    static void readChanged(Ev ev, Object self, String key) {
        Kept fields = RECEIVER.get(self.getClass());
        for (int i = ev.i(0); i != 0; i = ev.i(0)) {
            Object v = NativeValues.read(ev, key);
            if (i - 1 < fields.offsets.length) {
                put(self, fields, i - 1, v);
            }
        }
    }

    /** Recording: the exception's own fields. */
    static void writeException(Ev ev, Throwable t) {
        Kept fields = EXCEPTION.get(t.getClass());
        ev.i(fields.offsets.length);
        for (int i = 0; i < fields.offsets.length; i++) {
            NativeValues.write(ev, get(t, fields, i));
        }
    }

    /** Replaying: sets them in the recreated exception; one of another class (a fallback) keeps its message alone. */
    static void readException(Ev ev, Throwable t, String key) {
        Kept fields = EXCEPTION.get(t.getClass());
        int n = ev.i(0);
        for (int i = 0; i < n; i++) {
            Object v = NativeValues.read(ev, key);
            if (n == fields.offsets.length) {
                put(t, fields, i, v);
            }
        }
    }

    private static void add(Class<?> c, List<Field> fields, boolean enums) {
        for (Field f : c.getDeclaredFields()) {
            Class<?> t = f.getType();
            if (!Modifier.isStatic(f.getModifiers()) && (t.isPrimitive() || t == String.class || enums && t.isEnum())) {
                fields.add(f);
            }
        }
    }

    private static Object get(Object o, Kept fields, int i) {
        long at = fields.offsets[i];
        Class<?> t = fields.types[i];
        return t == long.class ? (Object) UNSAFE.getLong(o, at) : t == int.class ? (Object) UNSAFE.getInt(o, at)
                : t == boolean.class ? (Object) UNSAFE.getBoolean(o, at) : t == byte.class ? (Object) UNSAFE.getByte(o, at)
                : t == short.class ? (Object) UNSAFE.getShort(o, at) : t == char.class ? (Object) UNSAFE.getChar(o, at)
                : t == float.class ? (Object) UNSAFE.getFloat(o, at) : t == double.class ? (Object) UNSAFE.getDouble(o, at)
                : UNSAFE.getReference(o, at);
    }

    private static void put(Object o, Kept fields, int i, Object v) {
        long at = fields.offsets[i];
        Class<?> t = fields.types[i];
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
        // A store the program's other threads see as they would JNI's, which is no plain one.
        UNSAFE.fullFence();
    }
}
