package dev.reprise.agent.ops.classes;

import java.lang.reflect.Array;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

import dev.reprise.agent.runtime.events.Ev;

/**
 * What a native method gives back to Java, coded in its event ({@link NativeCalls}): primitives,
 * strings, arrays of them or of primitive arrays, and direct buffers (a library's view of its own
 * memory, such as SQLite's text of a column), each as a tag and its content. Anything else is
 * coded by its class alone: a replay cannot make it, and stops there ({@link #read}).
 */
final class NativeValues {
    private static final int NULL = 0;
    private static final int BOOLEAN = 1;
    private static final int BYTE = 2;
    private static final int CHAR = 3;
    private static final int SHORT = 4;
    private static final int INT = 5;
    private static final int LONG = 6;
    private static final int FLOAT = 7;
    private static final int DOUBLE = 8;
    private static final int STRING = 9;
    private static final int PRIMITIVES = 10;
    private static final int ARRAY = 11;
    private static final int DIRECT_BUFFER = 12;
    private static final int OTHER = 13;
    private static final int ENUM = 14;

    /** The components an array may have to be coded element by element: strings and primitive arrays. */
    private static final Class<?>[] COMPONENTS = {String.class, boolean[].class, byte[].class, char[].class, short[].class,
        int[].class, long[].class, float[].class, double[].class};

    private NativeValues() {
    }

    /** Whether {@code v} is coded with its content: what a replay can give back in its place. */
    static boolean codable(Object v) {
        return v == null || v instanceof Number || v instanceof Boolean || v instanceof Character || v instanceof String
                || primitiveArray(v) || v instanceof ByteBuffer b && b.isDirect() || v instanceof Enum<?> || componentIndex(v) >= 0;
    }

    /** Recording: codes {@code v}. */
    static void write(Ev ev, Object v) {
        if (v == null) {
            ev.i(NULL);
        } else if (v instanceof Boolean z) {
            ev.i(BOOLEAN);
            ev.z(z);
        } else if (v instanceof Byte n) {
            ev.i(BYTE);
            ev.j(n);
        } else if (v instanceof Character c) {
            ev.i(CHAR);
            ev.j(c);
        } else if (v instanceof Short n) {
            ev.i(SHORT);
            ev.j(n);
        } else if (v instanceof Integer n) {
            ev.i(INT);
            ev.j(n);
        } else if (v instanceof Long n) {
            ev.i(LONG);
            ev.j(n);
        } else if (v instanceof Float f) {
            ev.i(FLOAT);
            ev.j(Float.floatToRawIntBits(f));
        } else if (v instanceof Double d) {
            ev.i(DOUBLE);
            ev.j(Double.doubleToRawLongBits(d));
        } else if (v instanceof String s) {
            ev.i(STRING);
            ev.s(s);
        } else if (primitiveArray(v)) {
            ev.i(PRIMITIVES);
            ev.s(v.getClass().getName());
            ev.blob(bytesOf(v));
        } else if (v instanceof ByteBuffer b && b.isDirect()) {
            ev.i(DIRECT_BUFFER);
            ev.blob(contentOf(b));
            ev.i(b.position());
            ev.i(b.limit());
            ev.z(b.order() == ByteOrder.BIG_ENDIAN);
        } else if (v instanceof Enum<?> e) {
            ev.i(ENUM);
            ev.s(e.getDeclaringClass().getName());
            ev.s(e.name());
        } else if (componentIndex(v) >= 0) {
            ev.i(ARRAY);
            ev.i(componentIndex(v));
            int n = Array.getLength(v);
            ev.i(n);
            for (int i = 0; i < n; i++) {
                write(ev, Array.get(v, i));
            }
        } else {
            ev.i(OTHER);
            ev.s(v.getClass().getName());
        }
    }

    /** Replaying: the value coded; null, with a divergence reported, for one the recording could not code. {@code key} names the method. */
    static Object read(Ev ev, String key) {
        switch (ev.i(0)) {
            case NULL:
                return null;
            case BOOLEAN:
                return ev.z(false);
            case BYTE:
                return (byte) ev.j(0);
            case CHAR:
                return (char) ev.j(0);
            case SHORT:
                return (short) ev.j(0);
            case INT:
                return (int) ev.j(0);
            case LONG:
                return ev.j(0);
            case FLOAT:
                return Float.intBitsToFloat((int) ev.j(0));
            case DOUBLE:
                return Double.longBitsToDouble(ev.j(0));
            case STRING:
                return ev.s(null);
            case PRIMITIVES:
                return arrayOf(ev.s(null), ev.blob(null));
            case DIRECT_BUFFER: {
                byte[] content = ev.blob(null);
                ByteBuffer b = ByteBuffer.allocateDirect(content.length).put(content);
                int position = ev.i(0);
                b.limit(ev.i(0)).position(position);
                return b.order(ev.z(false) ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN);
            }
            case ARRAY: {
                Class<?> component = COMPONENTS[ev.i(0)];
                int n = ev.i(0);
                Object array = Array.newInstance(component, n);
                for (int i = 0; i < n; i++) {
                    Array.set(array, i, read(ev, key));
                }
                return array;
            }
            case ENUM: {
                String type = ev.s(null);
                String name = ev.s(null);
                try {
                    Class<?> c = Class.forName(type, false, Thread.currentThread().getContextClassLoader());
                    for (Object constant : c.getEnumConstants()) {
                        if (((Enum<?>) constant).name().equals(name)) {
                            return constant;
                        }
                    }
                } catch (ReflectiveOperationException | LinkageError | RuntimeException e) {
                    // reported below
                }
                dev.reprise.agent.runtime.events.Divergence.mismatch("native call", NativeCalls.named(key) + " gave a constant " + type + "."
                        + name + " when recorded, which the replay cannot find");
                return null;
            }
            default: {
                String type = ev.s(null);
                dev.reprise.agent.runtime.events.Divergence.mismatch("native call", NativeCalls.named(key) + " returned a " + type
                        + " when recorded, which a replay cannot make without running the library");
                return null;
            }
        }
    }

    /** The recorded content of an argument the native code could write to: a primitive array or a direct buffer. */
    static boolean writable(Object arg) {
        return primitiveArray(arg) || arg instanceof ByteBuffer b && b.isDirect() && !b.isReadOnly();
    }

    /** Recording: the content of a {@link #writable} argument after the call. */
    static void writeContent(Ev ev, Object arg) {
        ev.blob(arg instanceof ByteBuffer b ? contentOf(b) : bytesOf(arg));
    }

    /** Replaying: puts the recorded content back into the argument; false if it does not fit. */
    static boolean readContent(Ev ev, Object arg) {
        byte[] content = ev.blob(null);
        if (arg instanceof ByteBuffer b) {
            if (content.length != b.capacity()) {
                return false;
            }
            b.duplicate().clear().put(content);
            return true;
        }
        Object recorded = arrayOf(arg.getClass().getName(), content);
        if (Array.getLength(recorded) != Array.getLength(arg)) {
            return false;
        }
        System.arraycopy(recorded, 0, arg, 0, Array.getLength(arg));
        return true;
    }

    private static boolean primitiveArray(Object v) {
        return v != null && v.getClass().isArray() && v.getClass().getComponentType().isPrimitive();
    }

    private static int componentIndex(Object v) {
        if (v == null || !v.getClass().isArray()) {
            return -1;
        }
        Class<?> component = v.getClass().getComponentType();
        for (int i = 0; i < COMPONENTS.length; i++) {
            if (COMPONENTS[i] == component) {
                return i;
            }
        }
        return -1;
    }

    /** A direct buffer's whole memory, {@code [0, capacity)}: native code writes where it likes in it. */
    private static byte[] contentOf(ByteBuffer b) {
        byte[] content = new byte[b.capacity()];
        b.duplicate().clear().get(content);
        return content;
    }

    private static byte[] bytesOf(Object array) {
        if (array instanceof byte[] a) {
            return a.clone();
        }
        if (array instanceof boolean[] a) {
            byte[] b = new byte[a.length];
            for (int i = 0; i < a.length; i++) {
                b[i] = (byte) (a[i] ? 1 : 0);
            }
            return b;
        }
        int n = Array.getLength(array);
        int width = width(array.getClass().getComponentType());
        ByteBuffer b = ByteBuffer.allocate(n * width).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < n; i++) {
            if (array instanceof char[] a) {
                b.putChar(a[i]);
            } else if (array instanceof short[] a) {
                b.putShort(a[i]);
            } else if (array instanceof int[] a) {
                b.putInt(a[i]);
            } else if (array instanceof long[] a) {
                b.putLong(a[i]);
            } else if (array instanceof float[] a) {
                b.putFloat(a[i]);
            } else {
                b.putDouble(((double[]) array)[i]);
            }
        }
        return b.array();
    }

    private static Object arrayOf(String type, byte[] bytes) {
        switch (type) {
            case "[B":
                return bytes;
            case "[Z": {
                boolean[] a = new boolean[bytes.length];
                for (int i = 0; i < a.length; i++) {
                    a[i] = bytes[i] != 0;
                }
                return a;
            }
            default:
                break;
        }
        ByteBuffer b = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        switch (type) {
            case "[C": {
                char[] a = new char[bytes.length / 2];
                b.asCharBuffer().get(a);
                return a;
            }
            case "[S": {
                short[] a = new short[bytes.length / 2];
                b.asShortBuffer().get(a);
                return a;
            }
            case "[I": {
                int[] a = new int[bytes.length / 4];
                b.asIntBuffer().get(a);
                return a;
            }
            case "[J": {
                long[] a = new long[bytes.length / 8];
                b.asLongBuffer().get(a);
                return a;
            }
            case "[F": {
                float[] a = new float[bytes.length / 4];
                b.asFloatBuffer().get(a);
                return a;
            }
            default: {
                double[] a = new double[bytes.length / 8];
                b.asDoubleBuffer().get(a);
                return a;
            }
        }
    }

    private static int width(Class<?> primitive) {
        return primitive == long.class || primitive == double.class ? 8
                : primitive == int.class || primitive == float.class ? 4 : 2;
    }
}
