package dev.reprise.core.log;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.zip.Inflater;

/**
 * Reads the chunks of one stream file in order, verifying each.
 *
 * <p>A damaged header, bad checksum or undecodable payload is corruption and throws
 * {@link RecordingCorruptException}. A chunk cut short at the end of the file is the expected
 * result of a killed recorder: it ends the stream and is reported by {@link #tornTail()}.
 */
public final class ChunkReader implements AutoCloseable {
    private final Path file;
    private final InputStream in;
    private long offset;
    private long tornAt = -1;
    private int chunks;
    /** Of the chunk read last: its size uncompressed and how many events it holds. */
    private int rawLength;
    private int events;
    /** Made by the first {@link #next()}: a scan that only counts never needs one. */
    private Inflater inflater;

    public ChunkReader(Path file) {
        this.file = file;
        try {
            this.in = new java.io.BufferedInputStream(Files.newInputStream(file), 1 << 16);
        } catch (IOException e) {
            throw new RecordingCorruptException(file, 0, "cannot open: " + e.getMessage());
        }
        byte[] h = new byte[StreamFormat.FILE_HEADER_SIZE];
        if (readFully(h) != h.length || !Arrays.equals(Arrays.copyOf(h, 8), StreamFormat.FILE_MAGIC)) {
            close();
            throw new RecordingCorruptException(file, 0, "not a Reprise stream file");
        }
        int version = ByteBuffer.wrap(h).order(ByteOrder.LITTLE_ENDIAN).getShort(8);
        if (version != StreamFormat.VERSION) {
            close();
            throw new RecordingCorruptException(file, 8, "unsupported stream format version " + version);
        }
        offset = h.length;
    }

    /** The next chunk's raw bytes, or {@code null} at the end of the stream. */
    public byte[] next() {
        long start = offset;
        byte[] chunk = readVerified();
        if (chunk == null) {
            return null;
        }
        byte[] raw = new byte[rawLength];
        if (inflater == null) {
            inflater = new Inflater();
        }
        if (!StreamFormat.decompress(inflater, chunk, StreamFormat.CHUNK_HEADER_SIZE, chunk.length - StreamFormat.CHUNK_HEADER_SIZE, raw)) {
            throw new RecordingCorruptException(file, start, "chunk does not decompress");
        }
        return raw;
    }

    /**
     * Verifies the next chunk without decompressing it: its event count, or -1 at the end of the
     * stream. {@link #rawLength()} is then its size uncompressed.
     */
    public int nextCount() {
        return readVerified() == null ? -1 : events;
    }

    /** The uncompressed size of the chunk read last. */
    public int rawLength() {
        return rawLength;
    }

    /** The next chunk, header included, its checksum verified; null at the end of the stream or a torn tail. */
    private byte[] readVerified() {
        byte[] header = new byte[StreamFormat.CHUNK_HEADER_SIZE];
        long start = offset;
        int n = readFully(header);
        if (n == 0) {
            return null;
        }
        if (n < header.length) {
            tornAt = start;
            return null;
        }
        ByteBuffer h = ByteBuffer.wrap(header).order(ByteOrder.LITTLE_ENDIAN);
        int rawLen = h.getInt(4);
        int clen = h.getInt(8);
        int count = h.getInt(12);
        if (h.getInt(0) != StreamFormat.CHUNK_MAGIC) {
            throw new RecordingCorruptException(file, start, "bad chunk marker");
        }
        if (rawLen < 0 || rawLen > StreamFormat.MAX_CHUNK || clen < 0 || clen > StreamFormat.MAX_CHUNK || count < 0) {
            throw new RecordingCorruptException(file, start, "chunk length out of range");
        }
        byte[] chunk = Arrays.copyOf(header, header.length + clen);
        int got = readFullyInto(chunk, header.length, clen);
        if (got < clen) {
            tornAt = start;
            return null;
        }
        if (StreamFormat.checksum(chunk, clen) != h.getInt(16)) {
            throw new RecordingCorruptException(file, start, "chunk checksum mismatch");
        }
        rawLength = rawLen;
        events = count;
        chunks++;
        return chunk;
    }

    /** Offset of an incomplete last chunk, or -1 if the stream ended cleanly (so far). */
    public long tornTail() {
        return tornAt;
    }

    public String describe() {
        return file + " (chunk " + chunks + ", offset " + offset + ")";
    }

    RecordingCorruptException corrupt(String what) {
        return new RecordingCorruptException(file, offset, what);
    }

    private int readFully(byte[] b) {
        return readFullyInto(b, 0, b.length);
    }

    private int readFullyInto(byte[] b, int off, int len) {
        int total = 0;
        try {
            while (total < len) {
                int n = in.read(b, off + total, len - total);
                if (n < 0) {
                    break;
                }
                total += n;
            }
        } catch (IOException e) {
            throw new RecordingCorruptException(file, offset + total, "read failed: " + e.getMessage());
        }
        offset += total;
        return total;
    }

    @Override
    public void close() {
        if (inflater != null) {
            inflater.end();
        }
        try {
            in.close();
        } catch (IOException ignored) {
            // nothing to release beyond the descriptor
        }
    }
}
