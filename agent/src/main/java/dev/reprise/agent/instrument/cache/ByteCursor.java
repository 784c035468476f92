package dev.reprise.agent.instrument.cache;

import java.io.EOFException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Reads what the class cache's files hold ({@link ClassCache}, {@link ClassPack}: written with a
 * {@code DataOutputStream}) out of an array already in memory. A class load reads one cache
 * entry; a {@code DataInputStream} over a {@code ByteArrayInputStream} took each of its bytes
 * through a virtual call and a lock, and was itself garbage, two buffers of its own, at every load.
 * One per read, on one thread.
 */
final class ByteCursor {
    private final byte[] b;
    private final int end;
    private int at;

    /** Reads {@code b} from {@code from} up to {@code to}. */
    ByteCursor(byte[] b, int from, int to) {
        this.b = b;
        this.at = from;
        this.end = to;
    }

    int remaining() {
        return end - at;
    }

    private void need(int n) throws EOFException {
        if (n > end - at) {
            throw new EOFException(n + " bytes past the end");
        }
    }

    int readInt() throws EOFException {
        need(4);
        int v = BigEndian.readInt(b, at);
        at += 4;
        return v;
    }

    byte readByte() throws EOFException {
        need(1);
        return b[at++];
    }

    boolean readBoolean() throws EOFException {
        return readByte() != 0;
    }

    /**
     * A length or count read next, at most the bytes left: damage cannot size an array past the
     * end of what is read.
     */
    int readLength() throws EOFException {
        int n = readInt();
        if (n < 0 || n > end - at) {
            throw new EOFException("a length of " + n + " runs past the end");
        }
        return n;
    }

    byte[] readBytes(int n) throws EOFException {
        need(n);
        at += n;
        return Arrays.copyOfRange(b, at - n, at);
    }

    /** A string as {@link CacheEntry#writeString} wrote it: its UTF-8 bytes after their count. */
    String readString() throws EOFException {
        int n = readLength();
        String s = new String(b, at, n, StandardCharsets.UTF_8);
        at += n;
        return s;
    }

    List<String> readStrings() throws EOFException {
        int n = readLength();
        List<String> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            out.add(readString());
        }
        return out;
    }

    /** Passes over what {@link CacheEntry#writeStrings} wrote, decoding none of it. */
    void skipStrings() throws EOFException {
        int n = readLength();
        for (int i = 0; i < n; i++) {
            int length = readLength(); // before the addition, which would read the position first
            at += length;
        }
    }
}
