package dev.reprise.core.log;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A growable byte buffer that events are encoded into, owned by one thread.
 * Integers are LEB128 varints (signed ones zigzag-encoded) so that small values,
 * the common case for deltas and lengths, take one byte.
 */
public final class EventBuffer {
    private static final VarHandle BUF;

    static {
        try {
            BUF = MethodHandles.lookup().findVarHandle(EventBuffer.class, "buf", byte[].class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** Written by the owner only; a larger array is published with release ({@link #published}). */
    private byte[] buf;
    private int pos;

    public EventBuffer(int capacity) {
        buf = new byte[capacity];
    }

    public int position() {
        return pos;
    }

    /** Drops everything written after {@code mark}: used to rewrite an event that threw. */
    public void truncate(int mark) {
        pos = mark;
    }

    public byte[] array() {
        return buf;
    }

    /**
     * The array, read from another thread that acquired a position the owner released after
     * writing the bytes before it: whichever array this returns holds them. The array the owner
     * wrote them into does, by that release; a larger one copied them before its release in
     * {@link #ensure}.
     */
    public byte[] published() {
        return (byte[]) BUF.getAcquire(this);
    }

    public void putByte(int b) {
        ensure(1);
        buf[pos++] = (byte) b;
    }

    public void putVarLong(long v) {
        ensure(10);
        while ((v & ~0x7FL) != 0) {
            buf[pos++] = (byte) ((v & 0x7F) | 0x80);
            v >>>= 7;
        }
        buf[pos++] = (byte) v;
    }

    public void putSignedVarLong(long v) {
        putVarLong((v << 1) ^ (v >> 63));
    }

    /** Reserves one byte for a length that {@link #closeLength} fills in once the bytes after it are written. */
    public int openLength() {
        putByte(0);
        return pos - 1;
    }

    /**
     * Writes, at {@code mark}, the varint length of everything written after it. Lengths below 128
     * fit the reserved byte; longer ones shift the bytes after it, rare and proportional to them.
     */
    public void closeLength(int mark) {
        int start = mark + 1;
        int len = pos - start;
        if (len < 0x80) {
            buf[mark] = (byte) len;
            return;
        }
        int extra = varLongSize(len) - 1;
        ensure(extra);
        System.arraycopy(buf, start, buf, start + extra, len);
        pos = mark;
        putVarLong(len);
        pos += len;
    }

    static int varLongSize(long v) {
        int n = 1;
        while ((v & ~0x7FL) != 0) {
            v >>>= 7;
            n++;
        }
        return n;
    }

    public void putBytes(byte[] b, int off, int len) {
        ensure(len);
        System.arraycopy(b, off, buf, pos, len);
        pos += len;
    }

    /** Length-prefixed bytes. */
    public void putBlob(byte[] b, int off, int len) {
        putVarLong(len);
        putBytes(b, off, len);
    }

    public void putString(String s) {
        if (s == null) {
            putVarLong(0);
            return;
        }
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        putVarLong(b.length + 1L);
        putBytes(b, 0, b.length);
    }

    private void ensure(int n) {
        if (pos + n > buf.length) {
            BUF.setRelease(this, Arrays.copyOf(buf, Math.max(buf.length * 2, pos + n)));
        }
    }
}
