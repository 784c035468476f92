package dev.reprise.agent.ops;

import java.nio.ByteBuffer;
import java.util.zip.CRC32C;

import dev.reprise.agent.runtime.events.Digest;
import dev.reprise.agent.runtime.events.Ev;

/**
 * Buffers as event values: what a read put in byte arrays and channel buffers, heap and direct
 * alike, and the digests of the bytes a write takes.
 */
public final class Buffers {
    private Buffers() {
    }

    /**
     * The bytes an array read put at {@code b[off]}, {@code n} its coded count: logged, or filled
     * in on replay. Returns {@code n}.
     */
    public static int read(Ev ev, byte[] b, int off, int n) {
        if (n > 0) {
            ev.fill(b, off, n);
        }
        return n;
    }

    /**
     * The {@code n} bytes a read put at {@code dst[pos]}: logged, or put there on replay, where the
     * buffer's position then advances as the read would have advanced it.
     */
    public static void fill(Ev ev, ByteBuffer dst, int pos, int n) {
        if (n <= 0) {
            return;
        }
        if (dst.hasArray()) {
            ev.fill(dst.array(), dst.arrayOffset() + pos, n);
        } else {
            byte[] bytes = new byte[n];
            if (ev.live()) {
                dst.get(pos, bytes);
            }
            ev.fill(bytes, 0, n);
            if (!ev.live()) {
                dst.put(pos, bytes);
            }
        }
        if (!ev.live()) {
            dst.position(pos + n);
        }
    }

    /** The digest of a write's bytes; bad bounds are left for the real call to reject. */
    public static int digest(byte[] b, int off, int len) {
        if (b == null || off < 0 || len < 0 || off > b.length - len) {
            return 0;
        }
        return Digest.of(b, off, len);
    }

    /** The digest of the bytes a write is about to write; never throws. */
    public static int digest(ByteBuffer src) {
        if (src == null) {
            return 0;
        }
        CRC32C crc = new CRC32C();
        crc.update(src.duplicate());
        return (int) crc.getValue();
    }

    /** The positions of {@code bs[off, off+len)}, or null when the arguments are bad (the call will say so). */
    public static int[] positions(ByteBuffer[] bs, int off, int len) {
        if (bs == null || off < 0 || len < 0 || off > bs.length - len) {
            return null;
        }
        int[] p = new int[len];
        for (int i = 0; i < len; i++) {
            if (bs[off + i] == null) {
                return null;
            }
            p[i] = bs[off + i].position();
        }
        return p;
    }

    public static int digest(ByteBuffer[] bs, int off, int len) {
        if (positions(bs, off, len) == null) {
            return 0;
        }
        int h = 0;
        for (int i = 0; i < len; i++) {
            h = 31 * h + digest(bs[off + i]);
        }
        return h;
    }
}
