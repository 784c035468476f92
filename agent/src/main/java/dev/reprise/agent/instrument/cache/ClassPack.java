package dev.reprise.agent.instrument.cache;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.reprise.agent.runtime.events.Sites;

/**
 * The cache entries of the classes that runs with one class path loaded, in one file
 * ({@link ClassCache}): a cache hit is then one read from that file, kept open, instead of a file
 * opened per class, which cost class-heavy programs a tenth of a second or more.
 *
 * <p>A pack is named by its class path: each entry's path, and each jar's size, modification time
 * and file identity. It holds the classes that the JDK's loaders and the application class loader
 * loaded (not retransformed) in such runs, each found by its name and the length and two
 * checksums (CRC-32C and CRC-32) of the bytes the JVM gave, then checked against a checksum of
 * its own.
 *
 * <p>With jars only on the class path, a pack also vouches for its class path classes' answers
 * about other classes' fields ({@code VolatileFields.stillAnswers}), which then need not be asked
 * again. The application class loader finds classes in the class path's jars, whose stamps name
 * the pack, and in the jars their manifests name ({@code ClassFiles.reach}), whose stamps the pack
 * keeps: while those stay as they were, so do the answers. An entry vouches if its answers were
 * found or checked in a run that could vouch; when a stamp no longer holds, none does until a run
 * has checked it again.
 *
 * <p>A file holds a header (magic number, checksum of the index, index length), the index (the
 * files beyond the class path and their stamps, the number of entries, a fixed-size record per
 * entry sorted by key (the key's place and length, the bytes' length and CRC-32, the entry's
 * offset, size and checksum, whether it vouches), then the keys), then the entries as
 * {@link CacheEntry} writes them (what a class's own file holds after the bytes the JVM gave).
 */
public final class ClassPack {
    private static final int MAGIC = 0x52504b33;
    private static final int HEADER = 12;
    /** Packs kept per agent build and JDK: one per class path recently used. */
    private static final int KEPT = 16;
    /** An index record: key offset and length, the bytes' length and CRC-32, entry offset, size and checksum, vouched. */
    private static final int RECORD = 32;
    static final ClassPack NONE = new ClassPack(null, null, 0, 0, 0, false);

    /** Where an entry is, what the bytes it was made from were, and whether its answers are vouched for. */
    private record Slot(int length, int crc32, int offset, int size, int checksum, boolean vouched) {
    }

    /** A pack's file name, and whether its class path is jars only (so that it may vouch). */
    record Name(String file, boolean jarsOnly) {
    }

    /** An entry found, and whether its answers are vouched for. */
    public record Hit(CacheEntry entry, boolean vouched) {
    }

    /** An entry to add: the class, its bytes' length and checksums, and its entry as written. */
    record Added(String name, int length, int crc32c, int crc32, byte[] entry) {
    }

    /**
     * The file, open for reading; null for none. Replacing the file leaves what this reads intact.
     * Read, not mapped: every page fault on a mapping of a file in the page cache maps its
     * neighbours too, so the entries of a few thousand classes, spread over a pack that several
     * programs share, made most of the pack resident in the program's process (16.6 of 21 MB in a
     * recording of fop). Guarded by itself: a read is a seek then a read.
     */
    private final RandomAccessFile data;
    /** Where {@link #entry} reads an entry; grown to the largest read. Guarded by {@link #data}. */
    private byte[] scratch = new byte[0];
    /**
     * The index, copied out of the file once; null for none. Never changed after construction, so
     * readers on any thread need no lock. Its records are searched where they lie, rather than
     * parsed into a map at start-up (a few thousand entries would cost milliseconds of every run).
     */
    private final byte[] index;
    /** Where the records start in the index, how many there are, and where their keys start. */
    private final int records;
    private final int count;
    private final int keys;
    private final int entriesStart;
    /** Whether the files beyond the class path are as the pack found them. */
    private final boolean stampsHold;

    private ClassPack(RandomAccessFile data, byte[] index, int records, int count, int entriesStart, boolean stampsHold) {
        this.data = data;
        this.index = index;
        this.records = records;
        this.count = count;
        this.keys = records + count * RECORD;
        this.entriesStart = entriesStart;
        this.stampsHold = stampsHold;
    }

    /** The name of the pack for this JVM's class path. */
    static Name name() {
        String classPath = System.getProperty("java.class.path", "");
        String modulePath = System.getProperty("jdk.module.path", "");
        StringBuilder key = new StringBuilder(classPath).append('\0').append(modulePath).append('\0');
        boolean jarsOnly = modulePath.isEmpty();
        for (String entry : classPath.split(File.pathSeparator)) {
            Path p;
            try {
                p = Path.of(entry.isEmpty() ? "." : entry).toAbsolutePath();
            } catch (java.nio.file.InvalidPathException e) {
                key.append(entry).append("|invalid\0"); // the loader skips it
                continue;
            }
            jarsOnly &= !Files.isDirectory(p); // an absent entry is stamped as absent
            key.append(stamp(p));
        }
        byte[] bytes = key.toString().getBytes(StandardCharsets.UTF_8);
        return new Name("pack-" + Long.toHexString(Checksums.crc32c(bytes) & 0xFFFFFFFFL)
                + Long.toHexString(Checksums.crc32(bytes, 0, bytes.length) & 0xFFFFFFFFL), jarsOnly);
    }

    /**
     * What says a file is unchanged: its path, size, modification time and identity (a file
     * replaced by another is a new one), or that it is absent.
     */
    private static String stamp(Path p) {
        try {
            BasicFileAttributes a = Files.readAttributes(p, BasicFileAttributes.class);
            return p + "|" + a.size() + "|" + a.lastModifiedTime().to(java.util.concurrent.TimeUnit.NANOSECONDS)
                    + "|" + a.fileKey() + "\0";
        } catch (IOException e) {
            return p + "|none\0";
        }
    }

    private static String stamps(List<String> paths) {
        StringBuilder sb = new StringBuilder();
        for (String p : paths) {
            sb.append(stamp(Path.of(p)));
        }
        return sb.toString();
    }

    /** The pack in {@code file}, or {@link #NONE} if there is none or it is damaged. */
    static ClassPack read(File file) {
        if (!file.isFile()) {
            return NONE;
        }
        RandomAccessFile data = null;
        ClassPack pack = NONE;
        try {
            data = new RandomAccessFile(file, "r");
            pack = parse(file, data);
        } catch (IOException | RuntimeException e) {
            // damaged: none
        } finally {
            if (pack == NONE && data != null) {
                try {
                    data.close();
                } catch (IOException e) {
                    // nothing more is read from it
                }
            }
        }
        return pack;
    }

    /** The pack {@code data} holds, or {@link #NONE} if its header or index is damaged. */
    private static ClassPack parse(File file, RandomAccessFile data) throws IOException {
        long size = data.length();
        if (size < HEADER || size > Integer.MAX_VALUE) {
            return NONE;
        }
        int magic = data.readInt();
        int checksum = data.readInt();
        int indexLength = data.readInt();
        if (magic != MAGIC || indexLength < 0 || HEADER + (long) indexLength > size) {
            return NONE;
        }
        byte[] index = new byte[indexLength];
        data.readFully(index);
        if (Checksums.crc32c(index) != checksum) {
            return NONE;
        }
        ByteCursor in = new ByteCursor(index, 0, indexLength);
        List<String> reach = in.readStrings();
        boolean stampsHold = stamps(reach).equals(in.readString());
        int count = in.readInt();
        int records = indexLength - in.remaining();
        if (count < 0 || records + (long) count * RECORD > indexLength) {
            return NONE;
        }
        file.setLastModified(System.currentTimeMillis()); // used: kept by pruning
        return new ClassPack(data, index, records, count, HEADER + indexLength, stampsHold);
    }

    /** The entry of {@code input}, the bytes the JVM gave for class {@code name}, or null. */
    Hit get(String name, byte[] input, int crc32c) {
        Slot s = slot(keyBytes(name, crc32c));
        if (s == null || s.length() != input.length) {
            return null;
        }
        if (Checksums.crc32(input, 0, input.length) != s.crc32()) {
            return null;
        }
        CacheEntry entry = entry(s);
        return entry == null ? null : new Hit(entry, vouches(s));
    }

    /**
     * The entry in {@code s}, or null if damaged: read into {@link #scratch}, checked, and parsed
     * there, so that a class load allocates only what the entry holds (its bytes, its strings; the
     * call sites' names only in a run that names sites, {@code Sites.keepsNames}, and the answers
     * only if the pack does not vouch for them: a pack's entries are never written again from what
     * is parsed here).
     * A copy of each entry besides took what a recording of luindex allocates from 62 to 75 MB,
     * against its plain run's 56 MB, in the burst of class loading that makes G1 grow the heap
     * (async-profiler, BENCHMARKS.md).
     */
    private CacheEntry entry(Slot s) {
        try {
            synchronized (data) {
                if (scratch.length < s.size()) {
                    scratch = new byte[Math.max(s.size(), 2 * scratch.length)];
                }
                if (!readInto(s, scratch)) {
                    return null;
                }
                return CacheEntry.read(new ByteCursor(scratch, 0, s.size()), Sites.keepsNames(), !vouches(s));
            }
        } catch (IOException | RuntimeException e) {
            // A pack cut short under us, which only damage does.
            return null;
        }
    }

    /** Whether the entry in {@code s} vouches for its answers now: it did when written, and the stamps it relied on still hold. */
    private boolean vouches(Slot s) {
        return s.vouched() && stampsHold;
    }

    /** Reads the entry in {@code s} into the start of {@code into}: whether it is whole. */
    private boolean readInto(Slot s, byte[] into) throws IOException {
        synchronized (data) {
            data.seek(entriesStart + (long) s.offset());
            data.readFully(into, 0, s.size());
        }
        return Checksums.crc32c(into, 0, s.size()) == s.checksum();
    }

    /** The entry of class {@code name} with bytes of length {@code length} and CRC-32C {@code crc32c} as written, or null. */
    byte[] raw(String name, int length, int crc32c) {
        Slot s = slot(keyBytes(name, crc32c));
        return s == null || s.length() != length ? null : raw(s);
    }

    /** The slot of key {@code k} ({@link #keyBytes}): a binary search of the records, sorted by their keys' bytes; null if absent. */
    private Slot slot(byte[] k) {
        if (index == null) {
            return null;
        }
        int lo = 0;
        int hi = count - 1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            int at = records + mid * RECORD;
            int from = keys + BigEndian.readInt(index, at);
            int c = Arrays.compareUnsigned(index, from, from + BigEndian.readInt(index, at + 4), k, 0, k.length);
            if (c < 0) {
                lo = mid + 1;
            } else if (c > 0) {
                hi = mid - 1;
            } else {
                return slotAt(at);
            }
        }
        return null;
    }

    private Slot slotAt(int at) {
        return new Slot(BigEndian.readInt(index, at + 8), BigEndian.readInt(index, at + 12), BigEndian.readInt(index, at + 16),
                BigEndian.readInt(index, at + 20), BigEndian.readInt(index, at + 24), BigEndian.readInt(index, at + 28) == 1);
    }

    /** Every entry's key and slot, in the records' order. */
    private Map<String, Slot> slots() {
        Map<String, Slot> all = new LinkedHashMap<>();
        for (int i = 0; i < count; i++) {
            int at = records + i * RECORD;
            int from = keys + BigEndian.readInt(index, at);
            all.put(new String(index, from, BigEndian.readInt(index, at + 4), StandardCharsets.UTF_8), slotAt(at));
        }
        return all;
    }

    /** The entry in {@code s}, or null if damaged. */
    private byte[] raw(Slot s) {
        try {
            byte[] raw = new byte[s.size()];
            return readInto(s, raw) ? raw : null;
        } catch (IOException | RuntimeException e) {
            // A pack cut short under us, which only damage does.
            return null;
        }
    }

    /**
     * The key of class {@code name}'s entry for bytes of CRC-32C {@code crc32c}, as the index
     * holds it: the name, '@', the checksum in lower-case hex without leading zeros, in UTF-8.
     * Made in one array, not through strings: every class load looks one up, and the strings
     * were three of the four arrays a lookup made.
     */
    static byte[] keyBytes(String name, int crc32c) {
        int n = name.length();
        int digits = Math.max(1, (Integer.SIZE - Integer.numberOfLeadingZeros(crc32c) + 3) / 4);
        byte[] key = new byte[n + 1 + digits];
        for (int i = 0; i < n; i++) {
            char ch = name.charAt(i);
            if (ch >= 0x80) { // not one byte a char in UTF-8: the format as written
                return (name + '@' + Integer.toHexString(crc32c)).getBytes(StandardCharsets.UTF_8);
            }
            key[i] = (byte) ch;
        }
        key[n] = '@';
        for (int i = 0; i < digits; i++) {
            key[key.length - 1 - i] = (byte) Character.forDigit((crc32c >>> (4 * i)) & 0xF, 16);
        }
        return key;
    }

    private static String key(String name, int crc32c) {
        return new String(keyBytes(name, crc32c), StandardCharsets.UTF_8);
    }

    /**
     * A pack's file content: this pack's entries and {@code added}, which replace any of the same
     * key. Entries vouch if {@code reach} (the files beyond the class path that the loader
     * searches, {@code ClassFiles.reach}) is not null, the added ones because this run found or
     * checked their answers, this pack's if they did and its stamps held. Null if that changes
     * nothing, or would be too large for its offsets (ints).
     */
    byte[] withAdded(List<Added> added, List<File> reach) throws IOException {
        boolean vouch = reach != null;
        boolean changed = !stampsHold && vouch;
        Map<String, Slot> slots = slots();
        Map<String, Slot> written = new HashMap<>();
        ByteArrayOutputStream entries = new ByteArrayOutputStream(1 << 20);
        for (Added a : added) {
            String key = key(a.name(), a.crc32c());
            Slot old = slots.get(key);
            changed |= old == null || old.vouched() != vouch;
            written.put(key, new Slot(a.length(), a.crc32(), entries.size(), a.entry().length, Checksums.crc32c(a.entry()), vouch));
            entries.write(a.entry());
        }
        if (!changed) {
            return null;
        }
        for (Map.Entry<String, Slot> e : slots.entrySet()) {
            Slot s = e.getValue();
            byte[] raw = written.containsKey(e.getKey()) ? null : raw(s);
            if (raw != null) {
                written.put(e.getKey(), new Slot(s.length(), s.crc32(), entries.size(), raw.length, s.checksum(),
                        vouches(s) && vouch));
                entries.write(raw);
            }
        }
        ByteArrayOutputStream indexBytes = new ByteArrayOutputStream(96 * written.size() + 1024);
        DataOutputStream out = new DataOutputStream(indexBytes);
        List<String> reachPaths = new ArrayList<>();
        for (File f : vouch ? reach : List.<File>of()) {
            reachPaths.add(f.getPath());
        }
        CacheEntry.writeStrings(out, reachPaths);
        CacheEntry.writeString(out, stamps(reachPaths));
        out.writeInt(written.size());
        // Records in the order slot() searches: by the keys' bytes, unsigned.
        List<Map.Entry<byte[], Slot>> sorted = new ArrayList<>();
        for (Map.Entry<String, Slot> e : written.entrySet()) {
            sorted.add(Map.entry(e.getKey().getBytes(StandardCharsets.UTF_8), e.getValue()));
        }
        sorted.sort((a, b) -> Arrays.compareUnsigned(a.getKey(), b.getKey()));
        ByteArrayOutputStream keyBytes = new ByteArrayOutputStream(64 * written.size());
        for (Map.Entry<byte[], Slot> e : sorted) {
            Slot s = e.getValue();
            out.writeInt(keyBytes.size());
            out.writeInt(e.getKey().length);
            out.writeInt(s.length());
            out.writeInt(s.crc32());
            out.writeInt(s.offset());
            out.writeInt(s.size());
            out.writeInt(s.checksum());
            out.writeInt(s.vouched() ? 1 : 0);
            keyBytes.write(e.getKey());
        }
        keyBytes.writeTo(out);
        if ((long) HEADER + indexBytes.size() + entries.size() > Integer.MAX_VALUE) {
            return null;
        }
        byte[] ib = indexBytes.toByteArray();
        byte[] whole = new byte[HEADER + ib.length + entries.size()];
        BigEndian.writeInt(whole, 0, MAGIC);
        BigEndian.writeInt(whole, 4, Checksums.crc32c(ib));
        BigEndian.writeInt(whole, 8, ib.length);
        System.arraycopy(ib, 0, whole, HEADER, ib.length);
        System.arraycopy(entries.toByteArray(), 0, whole, HEADER + ib.length, entries.size());
        return whole;
    }

    /** Deletes all but the {@link #KEPT} packs used last: one per class path would grow without end. */
    static void prune(File dir) {
        File[] packs = dir.listFiles((d, n) -> n.startsWith("pack-"));
        if (packs == null || packs.length <= KEPT) {
            return;
        }
        Arrays.sort(packs, Comparator.comparingLong(File::lastModified).reversed());
        for (int i = KEPT; i < packs.length; i++) {
            packs[i].delete();
        }
    }
}
