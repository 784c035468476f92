package dev.reprise.core.log;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Decodes what {@link EventBuffer} encoded, reading the chunks of one stream in order.
 * A read past the last chunk throws {@link EndOfStream}: the recording ended there.
 */
public final class EventInput {
    /** Thrown when a stream has no more events. */
    public static final class EndOfStream extends RuntimeException {
        public EndOfStream() {
            super("end of recorded stream", null, false, false);
        }
    }

    private final Path file;
    private ChunkReader chunks;
    private boolean exhausted;
    private byte[] buf = new byte[0];
    private int pos;
    private int limit;
    /** Bytes consumed from this stream so far. */
    private long consumed;

    /** Reads {@code file}, opened on first use; a missing file is a stream without events. */
    public EventInput(Path file) {
        this.file = file;
    }

    /** True when no event remains; loads the next chunk when the current one is used up. */
    public boolean atEnd() {
        while (pos == limit) {
            if (exhausted) {
                return true;
            }
            if (chunks == null) {
                if (!Files.exists(file)) {
                    exhausted = true;
                    return true;
                }
                chunks = new ChunkReader(file);
            }
            byte[] next = chunks.next();
            if (next == null) {
                exhausted = true;
                chunks.close();
                return true;
            }
            buf = next;
            pos = 0;
            limit = next.length;
        }
        return false;
    }

    public int getByte() {
        if (atEnd()) {
            throw new EndOfStream();
        }
        consumed++;
        return buf[pos++] & 0xFF;
    }

    public long getVarLong() {
        long v = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            int b = getByte();
            v |= (long) (b & 0x7F) << shift;
            if ((b & 0x80) == 0) {
                return v;
            }
        }
        throw corrupt("varint longer than 10 bytes");
    }

    public long getSignedVarLong() {
        long v = getVarLong();
        return (v >>> 1) ^ -(v & 1);
    }

    public int getLength() {
        long n = getVarLong();
        if (n < 0 || n > Integer.MAX_VALUE - 16) {
            throw corrupt("length " + n + " out of range");
        }
        return (int) n;
    }

    public void getBytes(byte[] dst, int off, int len) {
        while (len > 0) {
            if (atEnd()) {
                throw new EndOfStream();
            }
            int n = Math.min(len, limit - pos);
            System.arraycopy(buf, pos, dst, off, n);
            pos += n;
            consumed += n;
            off += n;
            len -= n;
        }
    }

    public byte[] getBlob() {
        byte[] b = new byte[getLength()];
        getBytes(b, 0, b.length);
        return b;
    }

    public String getString() {
        int n = getLength();
        if (n == 0) {
            return null;
        }
        byte[] b = new byte[n - 1];
        getBytes(b, 0, b.length);
        return new String(b, StandardCharsets.UTF_8);
    }

    /**
     * The {@code index}th varint from the current position, read without taking it; -1 if it
     * does not lie in the chunk loaded (call {@link #atEnd} first). A chunk holds whole events,
     * so the next event's header lies in it.
     */
    public long peekVarLong(int index) {
        int p = pos;
        for (int k = 0; ; k++) {
            long v = 0;
            for (int shift = 0; ; shift += 7) {
                if (p == limit || shift >= 64) {
                    return -1;
                }
                int b = buf[p++] & 0xFF;
                v |= (long) (b & 0x7F) << shift;
                if ((b & 0x80) == 0) {
                    break;
                }
            }
            if (k == index) {
                return v;
            }
        }
    }

    /** Bytes consumed so far: the difference across an event is its size. */
    public long position() {
        return consumed;
    }

    /** Skips {@code n} bytes (an event payload a reader does not decode). */
    public void skip(long n) {
        while (n > 0) {
            if (atEnd()) {
                throw new EndOfStream();
            }
            int k = (int) Math.min(n, limit - pos);
            pos += k;
            consumed += k;
            n -= k;
        }
    }

    /** Offset of a torn last chunk (a killed recorder), or -1. */
    public long tornTail() {
        return chunks == null ? -1 : chunks.tornTail();
    }

    public Path file() {
        return file;
    }

    private RecordingCorruptException corrupt(String what) {
        return chunks != null ? chunks.corrupt(what) : new RecordingCorruptException(file, 0, what);
    }
}
