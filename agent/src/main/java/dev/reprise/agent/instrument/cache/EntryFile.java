package dev.reprise.agent.instrument.cache;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.File;
import java.io.FileInputStream;
import java.io.IOException;
import java.util.Arrays;

/**
 * A class's entry in a file of its own, as {@link ClassCache} names it: a seal
 * ({@link SealedFile}), the bytes the JVM gave (so that a class is never mistaken for another
 * with the same checksum) after their length, then the {@link CacheEntry}.
 */
final class EntryFile {
    private static final int MAGIC = 0x52504335;
    /** Where the file holds the bytes the JVM gave: after the seal and their length. */
    private static final int INPUT_AT = 12;

    private EntryFile() {
    }

    /** The entry in {@code file} made from {@code input}; null if missing, damaged or another class's. */
    static CacheEntry read(File file, byte[] input) {
        byte[] raw = readSealed(file, input.length);
        int length = input.length;
        if (raw == null || !Arrays.equals(raw, INPUT_AT, INPUT_AT + length, input, 0, length)) {
            return null; // missing, damaged, or another class's bytes with the same checksum
        }
        try {
            return CacheEntry.read(new ByteCursor(raw, INPUT_AT + length, raw.length), true, true);
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /**
     * The entry part of {@code file}, after the bytes the JVM gave, as a pack keeps it, if those
     * bytes are {@code length} long with CRC-32 {@code crc32}; null if missing, damaged or another class's.
     */
    static byte[] rawEntry(File file, int length, int crc32) {
        byte[] raw = readSealed(file, length);
        if (raw == null) {
            return null;
        }
        if (Checksums.crc32(raw, INPUT_AT, length) != crc32) {
            return null;
        }
        return Arrays.copyOfRange(raw, INPUT_AT + length, raw.length);
    }

    /**
     * The content of {@code file}, an entry made from {@code length} input bytes: sealed, and
     * holding that many; null if missing, damaged or not that entry's.
     */
    private static byte[] readSealed(File file, int length) {
        // A miss must not throw: with JFR's exception events on, a Throwable's constructor calls
        // jdk.jfr's ThrowableTracer, which may be the very class being loaded here.
        if (!file.isFile()) {
            return null;
        }
        byte[] raw;
        try (FileInputStream in = new FileInputStream(file)) {
            raw = in.readAllBytes();
        } catch (IOException e) {
            return null; // removed meanwhile
        }
        return SealedFile.sealed(raw, MAGIC) && BigEndian.readInt(raw, 8) == length && raw.length >= INPUT_AT + length
                ? raw : null;
    }

    /** Replaces {@code file} with {@code entry}, made from {@code input}. */
    static void write(File file, byte[] input, CacheEntry entry) throws IOException {
        ByteArrayOutputStream body = new ByteArrayOutputStream(input.length + entry.bytes().length + 1024);
        DataOutputStream out = new DataOutputStream(body);
        out.writeLong(0); // the seal
        out.writeInt(input.length);
        out.write(input);
        CacheEntry.write(out, entry);
        SealedFile.replace(file, SealedFile.seal(body.toByteArray(), MAGIC));
    }
}
