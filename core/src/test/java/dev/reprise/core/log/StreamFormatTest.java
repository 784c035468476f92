package dev.reprise.core.log;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import java.util.zip.Deflater;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Chunks written by {@link StreamFormat} read back exactly, and a payload that lies about its size is refused. */
class StreamFormatTest {
    @TempDir
    Path dir;

    @Test
    void compressibleAndIncompressibleChunksReadBackExactly() throws IOException {
        byte[] repetitive = new byte[70_000];
        for (int i = 0; i < repetitive.length; i++) {
            repetitive[i] = (byte) (i % 7);
        }
        byte[] random = new byte[70_000];
        new Random(1).nextBytes(random);
        Deflater deflater = StreamFormat.newDeflater();
        Path file = write(StreamFormat.encodeChunk(deflater, repetitive, repetitive.length, 3),
                StreamFormat.encodeChunk(deflater, random, random.length, 5),
                StreamFormat.encodeChunk(deflater, random, 0, 0));
        deflater.end();
        try (ChunkReader in = new ChunkReader(file)) {
            assertArrayEquals(repetitive, in.next());
            assertArrayEquals(random, in.next());
            assertArrayEquals(new byte[0], in.next());
            assertNull(in.next());
            assertEquals(-1, in.tornTail());
        }
        try (ChunkReader in = new ChunkReader(file)) {
            assertEquals(3, in.nextCount());
            assertEquals(5, in.nextCount());
        }
    }

    @Test
    void aPayloadLongerOrShorterThanItsHeaderSaysIsCorrupt() throws IOException {
        byte[] raw = new byte[1000];
        new Random(2).nextBytes(raw);
        for (int claimed : new int[] {990, 1001}) {
            Deflater deflater = StreamFormat.newDeflater();
            byte[] chunk = StreamFormat.encodeChunk(deflater, raw, raw.length, 1);
            deflater.end();
            // A consistent header and checksum around a payload of the wrong size: only decoding can tell.
            ByteBuffer h = ByteBuffer.wrap(chunk).order(ByteOrder.LITTLE_ENDIAN);
            h.putInt(4, claimed);
            h.putInt(16, StreamFormat.checksum(chunk, chunk.length - StreamFormat.CHUNK_HEADER_SIZE));
            try (ChunkReader in = new ChunkReader(write(chunk))) {
                RecordingCorruptException e = assertThrows(RecordingCorruptException.class, in::next);
                assertTrue(e.getMessage().contains("chunk does not decompress"), e.getMessage());
            }
        }
    }

    private Path write(byte[]... chunks) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(StreamFormat.fileHeader());
        for (byte[] c : chunks) {
            out.write(c);
        }
        Path file = Files.createTempFile(dir, "t", ".rpl");
        Files.write(file, out.toByteArray());
        return file;
    }
}
