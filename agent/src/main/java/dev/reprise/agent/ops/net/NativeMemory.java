package dev.reprise.agent.ops.net;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

/**
 * The native memory the JDK's socket calls read from and write into: the buffers of a read or a
 * write, an {@code iovec} array, the event array of an {@code epoll_wait}. A recording copies what
 * a call produced out of it; a replay puts the recorded bytes back where the call would have.
 */
public final class NativeMemory {
    private static final MethodHandle COPY;
    private static final MethodHandle GET_INT;
    private static final MethodHandle GET_LONG;
    private static final MethodHandle PUT_INT;
    private static final long BYTES_BASE;

    static {
        try {
            Class<?> unsafe = Class.forName("jdk.internal.misc.Unsafe");
            Object u = unsafe.getMethod("getUnsafe").invoke(null);
            MethodHandles.Lookup lookup = MethodHandles.privateLookupIn(unsafe, MethodHandles.lookup());
            COPY = lookup.findVirtual(unsafe, "copyMemory", MethodType.methodType(void.class, Object.class, long.class,
                    Object.class, long.class, long.class)).bindTo(u);
            GET_INT = lookup.findVirtual(unsafe, "getInt", MethodType.methodType(int.class, long.class)).bindTo(u);
            GET_LONG = lookup.findVirtual(unsafe, "getLong", MethodType.methodType(long.class, long.class)).bindTo(u);
            PUT_INT = lookup.findVirtual(unsafe, "putInt", MethodType.methodType(void.class, long.class, int.class)).bindTo(u);
            BYTES_BASE = ((Number) unsafe.getMethod("arrayBaseOffset", Class.class).invoke(u, byte[].class)).longValue();
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot reach the JDK's Unsafe", e);
        }
    }

    private NativeMemory() {
    }

    /** The {@code n} bytes at {@code address}. */
    public static byte[] get(long address, int n) {
        byte[] b = new byte[n];
        copy(null, address, b, BYTES_BASE, n);
        return b;
    }

    /** Puts {@code b[0, n)} at {@code address}. */
    public static void put(long address, byte[] b, int n) {
        copy(b, BYTES_BASE, null, address, n);
    }

    static int getInt(long address) {
        try {
            return (int) GET_INT.invokeExact(address);
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    static long getLong(long address) {
        try {
            return (long) GET_LONG.invokeExact(address);
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    static void putInt(long address, int v) {
        try {
            PUT_INT.invokeExact(address, v);
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    /**
     * The first {@code n} bytes of the buffers an {@code iovec} array of {@code count} entries at
     * {@code iov} describes: what a scattering read filled, or a gathering write took.
     */
    static byte[] gather(long iov, int count, long n) {
        byte[] b = new byte[(int) n];
        int done = 0;
        for (int i = 0; i < count && done < n; i++) {
            long base = getLong(iov + 16L * i);
            int len = (int) Math.min(getLong(iov + 16L * i + 8), n - done);
            copy(null, base, b, BYTES_BASE + done, len);
            done += len;
        }
        return b;
    }

    /** The bytes the buffers of an {@code iovec} array of {@code count} entries at {@code iov} hold. */
    static long total(long iov, int count) {
        long n = 0;
        for (int i = 0; i < count; i++) {
            n += getLong(iov + 16L * i + 8);
        }
        return n;
    }

    /** Spreads {@code b} over the buffers of an {@code iovec} array, as a scattering read does. */
    static void scatter(long iov, int count, byte[] b) {
        int done = 0;
        for (int i = 0; i < count && done < b.length; i++) {
            long base = getLong(iov + 16L * i);
            int len = (int) Math.min(getLong(iov + 16L * i + 8), b.length - done);
            copy(b, BYTES_BASE + done, null, base, len);
            done += len;
        }
    }

    private static void copy(Object src, long srcOffset, Object dst, long dstOffset, long n) {
        try {
            COPY.invokeExact(src, srcOffset, dst, dstOffset, n);
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }
}
