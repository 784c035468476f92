package dev.reprise.agent.instrument.cache;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.File;
import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.zip.CRC32C;

/**
 * The entries of the JDK classes start-up instruments before the program runs, in one file
 * ({@link ClassCache#startupEntries}): after the seal ({@link SealedFile}), their count, then a
 * record each, its length then the class's name and its {@link CacheEntry}.
 */
final class StartupEntriesFile {
    private static final int MAGIC = 0x52505334;

    private StartupEntriesFile() {
    }

    /** The entries in {@code file}, by internal name; none if there is no such file or it is damaged. */
    static Map<String, CacheEntry> read(File file) {
        Map<String, CacheEntry> out = new HashMap<>();
        if (!file.isFile()) {
            return out;
        }
        // Read a record at a time and parsed there, the checksum checked at the end: the whole
        // file in one array first would be garbage as large as the classes it holds, at every
        // start-up. A record's length is at most what is left of the file, so damage read before
        // the check cannot size an array past it.
        try (InputStream in = new BufferedInputStream(new FileInputStream(file), 1 << 16)) {
            byte[] head = in.readNBytes(12);
            if (head.length < 12 || BigEndian.readInt(head, 0) != MAGIC) {
                return out;
            }
            CRC32C crc = new CRC32C();
            crc.update(head, 8, 4);
            long left = file.length() - head.length;
            int n = BigEndian.readInt(head, 8);
            byte[] length = new byte[4];
            byte[] record = new byte[1 << 16];
            for (int i = 0; i < n; i++) {
                int size = in.readNBytes(length, 0, 4) == 4 ? BigEndian.readInt(length, 0) : -1;
                if (size < 0 || size > left - 4) {
                    throw new EOFException("a record of " + size + " bytes runs past the end");
                }
                left -= 4 + size;
                if (record.length < size) {
                    record = new byte[Math.max(size, 2 * record.length)];
                }
                if (in.readNBytes(record, 0, size) != size) {
                    throw new EOFException("the file is shorter than it was");
                }
                crc.update(length);
                crc.update(record, 0, size);
                ByteCursor cursor = new ByteCursor(record, 0, size);
                String name = cursor.readString();
                out.put(name, CacheEntry.read(cursor, true, true));
                if (cursor.remaining() != 0) {
                    throw new EOFException("a record longer than its entry");
                }
            }
            if (in.read() != -1 || (int) crc.getValue() != BigEndian.readInt(head, 4)) {
                out.clear();
            }
            return out;
        } catch (IOException | RuntimeException e) {
            out.clear();
            return out; // damaged: start-up retransforms, and writes the file anew
        }
    }

    /** Replaces {@code file} with {@code entries}, in their names' order. */
    static void write(File file, Map<String, CacheEntry> entries) throws IOException {
        ByteArrayOutputStream body = new ByteArrayOutputStream(1 << 20);
        DataOutputStream out = new DataOutputStream(body);
        out.writeLong(0); // the seal
        out.writeInt(entries.size());
        ByteArrayOutputStream record = new ByteArrayOutputStream(1 << 16);
        DataOutputStream recordOut = new DataOutputStream(record);
        for (Map.Entry<String, CacheEntry> e : new TreeMap<>(entries).entrySet()) {
            record.reset();
            CacheEntry.writeString(recordOut, e.getKey());
            CacheEntry.write(recordOut, e.getValue());
            out.writeInt(record.size());
            record.writeTo(out);
        }
        SealedFile.replace(file, SealedFile.seal(body.toByteArray(), MAGIC));
    }
}
