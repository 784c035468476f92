package dev.reprise.agent.instrument.cache;

import java.util.zip.CRC32;
import java.util.zip.CRC32C;

/**
 * The checksums the cache's files are named and checked by: CRC-32C, and CRC-32 where a second
 * polynomial confirms what the first picked.
 */
final class Checksums {
    private Checksums() {
    }

    static int crc32c(byte[] b) {
        return crc32c(b, 0, b.length);
    }

    /** CRC-32C, which every file here is checked and named by. */
    static int crc32c(byte[] b, int off, int len) {
        CRC32C crc = new CRC32C();
        crc.update(b, off, len);
        return (int) crc.getValue();
    }

    /** CRC-32: a second polynomial, where one checksum picks an entry and the other confirms it. */
    static int crc32(byte[] b, int off, int len) {
        CRC32 crc = new CRC32();
        crc.update(b, off, len);
        return (int) crc.getValue();
    }
}
