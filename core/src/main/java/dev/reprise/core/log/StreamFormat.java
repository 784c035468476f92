package dev.reprise.core.log;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.zip.CRC32C;
import java.util.zip.DataFormatException;
import java.util.zip.Deflater;
import java.util.zip.Inflater;

/**
 * Layout of a stream file: a 12-byte file header, then chunks.
 *
 * <pre>
 * file header: "REPRISE" 0x00, u16 format version, u16 reserved
 * chunk:       u32 magic "CHNK", u32 raw length, u32 compressed length, u32 events,
 *              u32 CRC32C of the four previous fields but the magic and of the payload,
 *              payload (a zlib stream, compression level 1)
 * </pre>
 * All integers are little-endian. A chunk is complete only if its whole payload is present and
 * its checksum matches: a writer killed mid-chunk leaves a torn tail that readers stop before.
 * The event count lets a stream be verified and counted against the manifest without
 * decompressing it (replay's check before it starts).
 *
 * <p>The payload is compressed by the JDK's zlib rather than a compressor written in Java: a
 * Java compressor is compiled by C2 while the program runs, on the program's cores (about 0.25 s
 * of C2 time for LZ4's in a recording of 5 MB), where zlib is native code from the start. At
 * level 1 it also writes a smaller recording than LZ4.
 */
public final class StreamFormat {
    public static final int VERSION = 3;
    public static final int FILE_HEADER_SIZE = 12;
    public static final int CHUNK_HEADER_SIZE = 20;
    static final byte[] FILE_MAGIC = {'R', 'E', 'P', 'R', 'I', 'S', 'E', 0};
    static final int CHUNK_MAGIC = 0x4B4E4843; // "CHNK" read little-endian
    /** Upper bound on one chunk's raw size: guards readers against absurd lengths in damaged files. */
    static final int MAX_CHUNK = 1 << 30;

    private StreamFormat() {
    }

    public static byte[] fileHeader() {
        ByteBuffer b = ByteBuffer.allocate(FILE_HEADER_SIZE).order(ByteOrder.LITTLE_ENDIAN);
        b.put(FILE_MAGIC).putShort((short) VERSION).putShort((short) 0);
        return b.array();
    }

    /** A compressor for {@link #encodeChunk}; its owner ends it. */
    public static Deflater newDeflater() {
        return new Deflater(Deflater.BEST_SPEED);
    }

    /**
     * Encodes {@code raw[0, len)}, which holds {@code events} whole events, as one chunk, header
     * included, with {@code deflater}, which it resets first.
     */
    public static byte[] encodeChunk(Deflater deflater, byte[] raw, int len, int events) {
        deflater.reset();
        deflater.setInput(raw, 0, len);
        deflater.finish();
        // Above zlib's bound for incompressible input (len + len / 4096 + 19); the loop holds without it.
        byte[] out = new byte[CHUNK_HEADER_SIZE + len + (len >> 3) + 64];
        int clen = 0;
        while (!deflater.finished()) {
            if (CHUNK_HEADER_SIZE + clen == out.length) {
                out = Arrays.copyOf(out, out.length * 2);
            }
            clen += deflater.deflate(out, CHUNK_HEADER_SIZE + clen, out.length - CHUNK_HEADER_SIZE - clen);
        }
        ByteBuffer h = ByteBuffer.wrap(out).order(ByteOrder.LITTLE_ENDIAN);
        h.putInt(0, CHUNK_MAGIC).putInt(4, len).putInt(8, clen).putInt(12, events);
        h.putInt(16, checksum(out, clen));
        return Arrays.copyOf(out, CHUNK_HEADER_SIZE + clen);
    }

    static int checksum(byte[] chunk, int clen) {
        CRC32C crc = new CRC32C();
        crc.update(chunk, 4, 12);
        crc.update(chunk, CHUNK_HEADER_SIZE, clen);
        return (int) crc.getValue();
    }

    /** Fills {@code dst} from the payload {@code src[off, off + clen)}; false if it does not decode to exactly that. */
    static boolean decompress(Inflater inflater, byte[] src, int off, int clen, byte[] dst) {
        inflater.reset();
        inflater.setInput(src, off, clen);
        int n = 0;
        try {
            // Inflate until the stream's end, which checks its trailer: a payload that decodes to
            // more than the chunk's raw length fails on the spare byte.
            byte[] spare = new byte[1];
            while (!inflater.finished()) {
                boolean full = n == dst.length;
                int k = full ? inflater.inflate(spare) : inflater.inflate(dst, n, dst.length - n);
                if (full && k > 0) {
                    return false; // longer than the chunk's raw length
                }
                if (k == 0 && !inflater.finished() && (inflater.needsInput() || inflater.needsDictionary())) {
                    return false; // cut short, or not a stream this writer made
                }
                n += k;
            }
            return n == dst.length;
        } catch (DataFormatException e) {
            return false;
        }
    }
}
