package dev.reprise.agent.instrument.cache;

import java.io.File;
import java.io.FileOutputStream;
import java.io.IOException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * How the cache's files are kept whole. Each is written to a temporary file and moved into place,
 * so concurrent runs never read half of one; a sealed one starts with a magic number and a
 * checksum of the rest, so that one damaged since is ignored (and written anew).
 */
final class SealedFile {
    private static final AtomicLong TEMP_NAMES = new AtomicLong();

    private SealedFile() {
    }

    /**
     * A file's first 8 bytes: {@code magic}, then a checksum of the rest. {@code raw} comes with
     * those 8 bytes reserved; it is returned filled in.
     */
    static byte[] seal(byte[] raw, int magic) {
        BigEndian.writeInt(raw, 0, magic);
        BigEndian.writeInt(raw, 4, Checksums.crc32c(raw, 8, raw.length - 8));
        return raw;
    }

    /** Whether {@code raw} was written by {@link #seal} with {@code magic} and is whole. */
    static boolean sealed(byte[] raw, int magic) {
        if (raw.length < 12 || BigEndian.readInt(raw, 0) != magic) {
            return false;
        }
        return Checksums.crc32c(raw, 8, raw.length - 8) == BigEndian.readInt(raw, 4);
    }

    /** Writes {@code file} whole or not at all: a temporary file beside it renamed over it. */
    static void replace(File file, byte[] content) throws IOException {
        // Unique enough between concurrent runs, and a clash only damages an entry, which its
        // checksum catches. Not the pid: ProcessHandle's initializer creates a thread pool and
        // seeds the thread's ThreadLocalRandom, which must happen in the program, not here.
        File tmp = new File(file.getParentFile(), ".tmp-" + Long.toHexString(System.nanoTime()) + "-"
                + Thread.currentThread().getId() + "-" + TEMP_NAMES.incrementAndGet());
        try (FileOutputStream out = new FileOutputStream(tmp)) {
            out.write(content);
        }
        // 0600 whatever the umask (java.io only, see ClassCache): only the user may write an entry.
        boolean privateMode = tmp.setReadable(false, false) && tmp.setWritable(false, false)
                && tmp.setReadable(true, true) && tmp.setWritable(true, true);
        if (!privateMode || !tmp.renameTo(file)) {
            tmp.delete();
        }
    }
}
