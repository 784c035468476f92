package dev.reprise.core.log;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.zip.CRC32C;

import net.jpountz.lz4.LZ4Compressor;
import net.jpountz.lz4.LZ4Factory;
import net.jpountz.lz4.LZ4SafeDecompressor;

/**
 * Layout of a stream file: a 12-byte file header, then chunks.
 *
 * <pre>
 * file header: "REPRISE" 0x00, u16 format version, u16 reserved
 * chunk:       u32 magic "CHNK", u32 raw length, u32 compressed length, u32 events,
 *              u32 CRC32C of the four previous fields but the magic and of the payload,
 *              payload (LZ4 block)
 * </pre>
 * All integers are little-endian. A chunk is complete only if its whole payload is present and
 * its checksum matches: a writer killed mid-chunk leaves a torn tail that readers stop before.
 * The event count lets a stream be verified and counted against the manifest without
 * decompressing it (replay's check before it starts).
 */
public final class StreamFormat {
    public static final int VERSION = 2;
    public static final int FILE_HEADER_SIZE = 12;
    public static final int CHUNK_HEADER_SIZE = 20;
    static final byte[] FILE_MAGIC = {'R', 'E', 'P', 'R', 'I', 'S', 'E', 0};
    static final int CHUNK_MAGIC = 0x4B4E4843; // "CHNK" read little-endian
    /** Upper bound on one chunk's raw size: guards readers against absurd lengths in damaged files. */
    static final int MAX_CHUNK = 1 << 30;

    private static final LZ4Factory LZ4 = LZ4Factory.safeInstance();

    private StreamFormat() {
    }

    public static byte[] fileHeader() {
        ByteBuffer b = ByteBuffer.allocate(FILE_HEADER_SIZE).order(ByteOrder.LITTLE_ENDIAN);
        b.put(FILE_MAGIC).putShort((short) VERSION).putShort((short) 0);
        return b.array();
    }

    /** Encodes {@code raw[0, len)}, which holds {@code events} whole events, as one chunk, header included. */
    public static byte[] encodeChunk(byte[] raw, int len, int events) {
        LZ4Compressor c = LZ4.fastCompressor();
        byte[] out = new byte[CHUNK_HEADER_SIZE + c.maxCompressedLength(len)];
        int clen = c.compress(raw, 0, len, out, CHUNK_HEADER_SIZE);
        ByteBuffer h = ByteBuffer.wrap(out).order(ByteOrder.LITTLE_ENDIAN);
        h.putInt(0, CHUNK_MAGIC).putInt(4, len).putInt(8, clen).putInt(12, events);
        h.putInt(16, checksum(out, clen));
        return java.util.Arrays.copyOf(out, CHUNK_HEADER_SIZE + clen);
    }

    static int checksum(byte[] chunk, int clen) {
        CRC32C crc = new CRC32C();
        crc.update(chunk, 4, 12);
        crc.update(chunk, CHUNK_HEADER_SIZE, clen);
        return (int) crc.getValue();
    }

    static void decompress(byte[] src, int off, int clen, byte[] dst) {
        LZ4SafeDecompressor d = LZ4.safeDecompressor();
        int n = d.decompress(src, off, clen, dst, 0, dst.length);
        if (n != dst.length) {
            throw new IllegalStateException("decompressed " + n + " bytes, expected " + dst.length);
        }
    }
}
