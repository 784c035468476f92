package dev.reprise.agent.instrument;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.File;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.zip.CRC32;
import java.util.zip.CRC32C;

import dev.reprise.core.config.CacheLayout;

/**
 * Classes as instrumented by an earlier run on the same JDK (docs/decisions/0002-class-cache.md:
 * a per-JDK cache). Instrumenting the JDK is most of the agent's start-up, and instrumenting a large
 * library much of a short program's run; a cached class is a file read. The cache only saves
 * work: whatever fails here, the class is instrumented as before.
 *
 * <p>An entry's directory is named by a checksum of the agent jar and by the JDK's version and
 * home, so a rebuilt agent or another JDK never reads another's entries (the instrumentation of
 * a class also depends on its JDK superclasses); only the last few builds used keep theirs. Its file is named by the class, whether it is
 * being loaded or retransformed, and a checksum of the bytes the JVM gave. It holds a magic
 * number, a checksum of the rest, the bytes the JVM gave (a class is never mistaken for another
 * with the same checksum), the names of the call sites the instrumentation registered
 * (for divergence reports), what a class path class's instrumentation learnt of other classes'
 * fields (checked again before the entry is used), the class's own fields (so that a hit need not
 * read the class to answer later questions about them), and the class bytes. A damaged entry is ignored and rewritten.
 * Entries are written to a temporary file and moved into place, so concurrent runs never read
 * half of one. The directory also keeps which loaded JDK classes start-up must retransform for
 * {@link QuietCallRewriter}, found by reading class files, and those classes' instrumented bytes
 * in one file ({@link LoadedClasses}).
 *
 * <p>The cache runs inside the JVM's class loading, so it may load no class of its own there: a
 * class it needed first while that class was being loaded would be circular. It uses java.io
 * only, and {@link #open} runs every path once, before the transformer is installed.
 */
public final class ClassCache {
    private static final int MAGIC = 0x52504335;
    /** Where an entry's file holds the bytes the JVM gave: after the seal and their length. */
    private static final int INPUT_AT = 12;
    private static final String VERDICTS = "quiet-calls";
    private static final int VERDICTS_MAGIC = 0x52505143;
    private static final String STARTUP = "startup";
    private static final int STARTUP_MAGIC = 0x52505334;
    /** How many agent builds keep their entries: a few, for switching between versions. */
    private static final int KEPT_BUILDS = 3;
    private static final java.util.concurrent.atomic.AtomicLong TEMP_NAMES = new java.util.concurrent.atomic.AtomicLong();

    private final File dir;
    private final Map<String, Boolean> verdicts;
    /** The pack of this class path ({@link ClassPack}), read once at start-up. */
    private final ClassPack pack;
    private final ClassPack.Name packName;
    /** Classes this run loaded that the pack lacks; guarded by itself (class loading runs on any thread). */
    private final List<Unpacked> unpacked = new ArrayList<>();

    /** A class whose entry the next pack should hold: its name, and its bytes' length and checksums. */
    private record Unpacked(String name, int length, int crc32c, int crc32) {
    }

    private ClassCache(File dir, ClassPack.Name packName) {
        this.dir = dir;
        this.verdicts = readVerdicts(new File(dir, VERDICTS));
        this.packName = packName;
        this.pack = ClassPack.read(new File(dir, packName.file()));
    }

    /** The cache under {@code root} for this agent jar and this JDK, or null if it cannot be used. */
    public static ClassCache open(Path root, Path agentJar) {
        if (root == null) {
            return null;
        }
        try {
            File build = CacheLayout.build(root, agentJar).toFile();
            File builds = build.getParentFile();
            CRC32C home = new CRC32C();
            home.update(System.getProperty("java.home").getBytes(StandardCharsets.UTF_8));
            String jdk = System.getProperty("java.runtime.version").replaceAll("[^A-Za-z0-9._-]", "_");
            Path dir = build.toPath().resolve(jdk + "-" + Long.toHexString(home.getValue()));
            createPrivate(dir);
            build.setLastModified(System.currentTimeMillis());
            pruneBuilds(builds);
            ClassCache cache = new ClassCache(dir.toFile(), ClassPack.name());
            // Every path once: a miss (of a name never written), a write, a hit and its kept fields.
            byte[] probe = {(byte) 0xCA, (byte) 0xFE};
            cache.get("reprise/Absent", true, probe);
            VolatileFields.Declared fields = new VolatileFields.Declared("java/lang/Object", Set.of("f", "g"), Set.of("f"), Set.of("g"), false);
            cache.put("reprise/Probe", true, probe, new Entry(probe, List.of("probe"), List.of("reprise/Probe;f;0;"),
                    declaredBytes(fields)));
            Entry hit = cache.get("reprise/Probe", true, probe);
            // Not the record's equals: its first call spins method handles.
            return hit != null && declared(hit.declared()).volatiles().equals(fields.volatiles()) ? cache : null;
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /**
     * Creates {@code dir} and its missing parents 0700 whatever the umask: {@code reprise} uses a
     * cache only while no one else can write to it (CacheTrust).
     */
    private static void createPrivate(Path dir) throws IOException {
        if (Files.isDirectory(dir)) {
            return;
        }
        createPrivate(dir.getParent());
        try {
            Files.createDirectory(dir);
        } catch (FileAlreadyExistsException e) {
            return; // a concurrent run made it
        }
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx------"));
    }

    /**
     * Deletes the entries of all but the {@link #KEPT_BUILDS} agent builds used last: each
     * build's entries are of no use to another, and rebuilding the agent would otherwise grow the
     * cache without end. A run of a deleted build still running just finds no entries.
     */
    private static void pruneBuilds(File builds) {
        File[] all = builds.listFiles(File::isDirectory);
        if (all == null || all.length <= KEPT_BUILDS) {
            return;
        }
        Arrays.sort(all, java.util.Comparator.comparingLong(File::lastModified).reversed());
        for (int i = KEPT_BUILDS; i < all.length; i++) {
            delete(all[i]);
        }
    }

    private static void delete(File f) {
        File[] children = f.listFiles();
        if (children != null) {
            for (File c : children) {
                delete(c);
            }
        }
        f.delete();
    }

    /**
     * A cached class: its instrumented bytes, none if instrumenting changed no code
     * ({@link Unchanged}: the class is loaded as it is), the call-site names its instrumentation
     * registered, for a class path class what it asked about other classes' fields
     * ({@link VolatileFields.Lookup}), and its own fields as {@link #declaredBytes} writes them, if
     * its instrumentation read them (else null): kept unparsed, since only a class instrumented
     * anew may ask about them ({@link VolatileFields#defineKept}), and with a warm cache none is.
     */
    record Entry(byte[] bytes, List<String> sites, List<String> answers, byte[] declared) {
        /** The bytes that stand for a class instrumenting left as it was. */
        static final byte[] UNCHANGED = new byte[0];

        boolean unchanged() {
            return bytes.length == 0;
        }
    }

    Entry get(String name, boolean firstLoad, byte[] input) {
        byte[] raw = readEntryFile(file(name, firstLoad, input), input.length);
        int length = input.length;
        if (raw == null || !Arrays.equals(raw, INPUT_AT, INPUT_AT + length, input, 0, length)) {
            return null; // missing, damaged, or another class's bytes with the same checksum
        }
        try {
            return readEntry(new ByteCursor(raw, INPUT_AT + length, raw.length), true, true);
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /**
     * The content of an entry's file made from {@code length} input bytes: sealed, and holding
     * that many; null if missing, damaged or not that entry's.
     */
    private static byte[] readEntryFile(File file, int length) {
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
        return sealed(raw, MAGIC) && readInt(raw, 8) == length && raw.length >= INPUT_AT + length ? raw : null;
    }

    void put(String name, boolean firstLoad, byte[] input, Entry entry) {
        try {
            ByteArrayOutputStream body = new ByteArrayOutputStream(input.length + entry.bytes().length + 1024);
            DataOutputStream out = new DataOutputStream(body);
            out.writeLong(0); // the seal
            out.writeInt(input.length);
            out.write(input);
            writeEntry(out, entry);
            replace(file(name, firstLoad, input), seal(body.toByteArray(), MAGIC));
        } catch (IOException | RuntimeException e) {
            // not cached: the next run instruments the class again
        }
    }

    static void writeEntry(DataOutputStream out, Entry entry) throws IOException {
        writeStrings(out, entry.sites());
        writeStrings(out, entry.answers());
        out.writeBoolean(entry.declared() != null);
        if (entry.declared() != null) {
            out.writeInt(entry.declared().length);
            out.write(entry.declared());
        }
        out.writeInt(entry.bytes().length);
        out.write(entry.bytes());
    }

    /**
     * The entry {@link #writeEntry} wrote, its call sites' names read only if {@code sites}: they
     * serve only to be written again ({@link #saveStartupEntries}) or to name sites in a replay's
     * divergence reports ({@code Sites}), and a class load's entry holds one per rewritten call.
     * Its answers are read only if {@code answers}: those of a pack that vouches for them are not
     * asked again ({@link ClassPack}).
     */
    static Entry readEntry(ByteCursor in, boolean sites, boolean answers) throws IOException {
        List<String> siteNames = strings(in, sites);
        List<String> asked = strings(in, answers);
        byte[] declared = in.readBoolean() ? in.readBytes(in.readLength()) : null;
        return new Entry(in.readBytes(in.readLength()), siteNames, asked, declared);
    }

    /** The strings at {@code in}, or none, skipped, if not {@code wanted}. */
    private static List<String> strings(ByteCursor in, boolean wanted) throws IOException {
        if (wanted) {
            return in.readStrings();
        }
        in.skipStrings();
        return List.of();
    }

    /**
     * A file's first 8 bytes: {@code magic}, then a checksum of the rest. {@code raw} comes with
     * those 8 bytes reserved; it is returned filled in.
     */
    private static byte[] seal(byte[] raw, int magic) {
        writeInt(raw, 0, magic);
        writeInt(raw, 4, crc32c(raw, 8, raw.length - 8));
        return raw;
    }

    /** Whether {@code raw} was written by {@link #seal} with {@code magic} and is whole. */
    private static boolean sealed(byte[] raw, int magic) {
        if (raw.length < 12 || readInt(raw, 0) != magic) {
            return false;
        }
        return crc32c(raw, 8, raw.length - 8) == readInt(raw, 4);
    }

    /**
     * A class's own fields: its superclass ("" for none), whether it declares a hashCode, then each
     * field as a kind ('v'olatile, 'f'inal, 'p'lain) and name. Null for null.
     */
    static byte[] declaredBytes(VolatileFields.Declared d) {
        if (d == null) {
            return null;
        }
        try {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream(16 + 16 * d.fields().size());
            DataOutputStream out = new DataOutputStream(bytes);
            writeString(out, d.superName() == null ? "" : d.superName());
            out.writeBoolean(d.ownHashCode());
            out.writeInt(d.fields().size());
            for (String f : new java.util.TreeSet<>(d.fields())) { // in an order of their own: the same entry every time
                out.writeByte(d.volatiles().contains(f) ? 'v' : d.finals().contains(f) ? 'f' : 'p');
                writeString(out, f);
            }
            return bytes.toByteArray();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e); // not thrown by an array
        }
    }

    /**
     * What {@link #declaredBytes} wrote. Makes the immutable sets straight from arrays, which
     * {@link VolatileFields.Declared}'s {@code Set.copyOf} then keeps as they are: hash sets copied
     * into immutable ones were a sixth of a cache hit when every hit parsed these (BENCHMARKS.md).
     * A section that repeats a name fails {@code Set.of}, and one cut short or with bytes left
     * over throws too: damage, which the caller treats as fields it does not know.
     */
    static VolatileFields.Declared declared(byte[] section) throws IOException {
        ByteCursor in = new ByteCursor(section, 0, section.length);
        String superName = in.readString();
        boolean hashCode = in.readBoolean();
        int n = in.readLength();
        String[] fields = new String[n];
        String[] volatiles = new String[n];
        String[] finals = new String[n];
        int v = 0;
        int f = 0;
        for (int i = 0; i < n; i++) {
            int kind = in.readByte();
            String name = in.readString();
            fields[i] = name;
            if (kind == 'v') {
                volatiles[v++] = name;
            } else if (kind == 'f') {
                finals[f++] = name;
            }
        }
        if (in.remaining() != 0) {
            throw new EOFException("a section longer than its fields");
        }
        return new VolatileFields.Declared(superName.isEmpty() ? null : superName, Set.of(fields),
                Set.of(Arrays.copyOf(volatiles, v)), Set.of(Arrays.copyOf(finals, f)), hashCode);
    }

    /**
     * A string as its UTF-8 bytes after their count: a run reads thousands of these, and decoding
     * them as the JDK decodes a String's bytes is much faster than {@code readUTF}'s modified UTF-8.
     */
    static void writeString(DataOutputStream out, String s) throws IOException {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        out.writeInt(b.length);
        out.write(b);
    }

    static void writeStrings(DataOutputStream out, List<String> strings) throws IOException {
        out.writeInt(strings.size());
        for (String s : strings) {
            writeString(out, s);
        }
    }

    /**
     * The entry of a class that a JDK loader or the application class loader loads, from this
     * class path's pack; null if the pack lacks it.
     */
    ClassPack.Hit packed(String name, byte[] input) {
        return pack.get(name, input, crc32c(input));
    }

    /** Whether this class path's pack may vouch for answers ({@link ClassPack}): its class path is jars only. */
    boolean packMayVouch() {
        return packName.jarsOnly();
    }

    /**
     * Notes a class, loaded by a JDK loader or the application class loader, for the next pack:
     * its entry was found or written here, or found in the pack and its answers checked.
     */
    void pack(String name, byte[] input) {
        Unpacked u = new Unpacked(name, input.length, crc32c(input), crc32(input, 0, input.length));
        synchronized (unpacked) {
            unpacked.add(u);
        }
    }

    /**
     * At exit: writes the pack anew if this run loaded classes it lacked or checked answers it did
     * not vouch for. Its entries vouch only if the class path is jars only and the application
     * class loader searched nothing a pack cannot stamp ({@link ClassFiles#reach}).
     */
    void savePack() {
        List<Unpacked> todo;
        synchronized (unpacked) {
            todo = new ArrayList<>(unpacked);
            unpacked.clear();
        }
        List<ClassPack.Added> added = new ArrayList<>();
        for (Unpacked u : todo) {
            byte[] entry = entryOf(u);
            if (entry == null) {
                entry = pack.raw(u.name(), u.length(), u.crc32c());
            }
            if (entry != null) {
                added.add(new ClassPack.Added(u.name(), u.length(), u.crc32c(), u.crc32(), entry));
            }
        }
        if (added.isEmpty()) {
            return;
        }
        try {
            byte[] content = pack.withAdded(added, packName.jarsOnly() ? ClassFiles.reach() : null);
            if (content != null) {
                replace(new File(dir, packName.file()), content);
                ClassPack.prune(dir);
            }
        } catch (IOException | RuntimeException e) {
            // not kept: the next run reads the entries one file each
        }
    }

    /** The entry part of {@code u}'s file, after the bytes the JVM gave; null if missing, damaged or another class's. */
    private byte[] entryOf(Unpacked u) {
        byte[] raw = readEntryFile(file(u.name(), true, u.crc32c()), u.length());
        if (raw == null) {
            return null;
        }
        if (crc32(raw, INPUT_AT, u.length()) != u.crc32()) {
            return null;
        }
        return Arrays.copyOfRange(raw, INPUT_AT + u.length(), raw.length);
    }

    /**
     * Which already loaded JDK classes call into java.util.concurrent ({@link QuietCallRewriter}),
     * by internal name, and which declare a static initializer (under the name followed by
     * {@code .<clinit>}, {@link LoadedClasses}), as earlier runs found from this JDK's class
     * files; add to it, then
     * {@link #saveQuietVerdicts}.
     */
    Map<String, Boolean> quietVerdicts() {
        return verdicts;
    }

    /**
     * The entries of the JDK classes that start-up instruments before the program runs
     * ({@link LoadedClasses}), by internal name, as earlier runs on this JDK left them in one
     * file; none if there is no such file or it is damaged.
     */
    Map<String, Entry> startupEntries() {
        Map<String, Entry> out = new HashMap<>();
        File file = new File(dir, STARTUP);
        if (!file.isFile()) {
            return out;
        }
        // Read a record at a time and parsed there, the checksum checked at the end: the whole
        // file in one array first would be garbage as large as the classes it holds, at every
        // start-up. A record's length is at most what is left of the file, so damage read before
        // the check cannot size an array past it.
        try (InputStream in = new BufferedInputStream(new FileInputStream(file), 1 << 16)) {
            byte[] head = in.readNBytes(12);
            if (head.length < 12 || readInt(head, 0) != STARTUP_MAGIC) {
                return out;
            }
            CRC32C crc = new CRC32C();
            crc.update(head, 8, 4);
            long left = file.length() - head.length;
            int n = readInt(head, 8);
            byte[] length = new byte[4];
            byte[] record = new byte[1 << 16];
            for (int i = 0; i < n; i++) {
                int size = in.readNBytes(length, 0, 4) == 4 ? readInt(length, 0) : -1;
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
                out.put(name, readEntry(cursor, true, true));
                if (cursor.remaining() != 0) {
                    throw new EOFException("a record longer than its entry");
                }
            }
            if (in.read() != -1 || (int) crc.getValue() != readInt(head, 4)) {
                out.clear();
            }
            return out;
        } catch (IOException | RuntimeException e) {
            out.clear();
            return out; // damaged: start-up retransforms, and writes the file anew
        }
    }

    /** Replaces the file {@link #startupEntries} reads: after the seal, a count, then each record's length and record. */
    void saveStartupEntries(Map<String, Entry> entries) {
        try {
            ByteArrayOutputStream body = new ByteArrayOutputStream(1 << 20);
            DataOutputStream out = new DataOutputStream(body);
            out.writeLong(0); // the seal
            out.writeInt(entries.size());
            ByteArrayOutputStream record = new ByteArrayOutputStream(1 << 16);
            DataOutputStream recordOut = new DataOutputStream(record);
            for (Map.Entry<String, Entry> e : new TreeMap<>(entries).entrySet()) {
                record.reset();
                writeString(recordOut, e.getKey());
                writeEntry(recordOut, e.getValue());
                out.writeInt(record.size());
                record.writeTo(out);
            }
            replace(new File(dir, STARTUP), seal(body.toByteArray(), STARTUP_MAGIC));
        } catch (IOException | RuntimeException e) {
            // not kept: the next run retransforms again
        }
    }

    /** Writes the verdicts, a line each, sealed like the other files ({@link #seal}). */
    void saveQuietVerdicts() {
        StringBuilder sb = new StringBuilder("\0".repeat(8)); // the seal
        for (Map.Entry<String, Boolean> e : new TreeMap<>(verdicts).entrySet()) {
            sb.append(e.getValue() ? '1' : '0').append(' ').append(e.getKey()).append('\n');
        }
        try {
            replace(new File(dir, VERDICTS), seal(sb.toString().getBytes(StandardCharsets.UTF_8), VERDICTS_MAGIC));
        } catch (IOException e) {
            // not kept: the next run reads the class files again
        }
    }

    /** The verdicts {@link #saveQuietVerdicts} wrote, or none if the file is missing or damaged. */
    private static Map<String, Boolean> readVerdicts(File file) {
        Map<String, Boolean> known = new HashMap<>();
        try (FileInputStream in = new FileInputStream(file)) {
            byte[] raw = in.readAllBytes();
            if (!sealed(raw, VERDICTS_MAGIC)) {
                return known; // written partly or damaged: start again
            }
            for (String line : new String(raw, 8, raw.length - 8, StandardCharsets.UTF_8).split("\n")) {
                if (!line.isEmpty()) {
                    known.put(line.substring(2), line.charAt(0) == '1');
                }
            }
        } catch (IOException | RuntimeException e) {
            known.clear();
        }
        return known;
    }

    /** Writes {@code file} whole or not at all: a temporary file renamed over it. */
    private void replace(File file, byte[] content) throws IOException {
        // Unique enough between concurrent runs, and a clash only damages an entry, which its
        // checksum catches. Not the pid: ProcessHandle's initializer creates a thread pool and
        // seeds the thread's ThreadLocalRandom, which must happen in the program, not here.
        File tmp = new File(dir, ".tmp-" + Long.toHexString(System.nanoTime()) + "-"
                + Thread.currentThread().getId() + "-" + TEMP_NAMES.incrementAndGet());
        try (FileOutputStream out = new FileOutputStream(tmp)) {
            out.write(content);
        }
        // 0600 whatever the umask (java.io only, see the class comment): only the user may write an entry.
        boolean privateMode = tmp.setReadable(false, false) && tmp.setWritable(false, false)
                && tmp.setReadable(true, true) && tmp.setWritable(true, true);
        if (!privateMode || !tmp.renameTo(file)) {
            tmp.delete();
        }
    }

    private File file(String name, boolean firstLoad, byte[] input) {
        return file(name, firstLoad, crc32c(input));
    }

    private File file(String name, boolean firstLoad, int crc32c) {
        return new File(dir, name.replace('/', '.') + (firstLoad ? ".load." : ".retransform.")
                + Long.toHexString(crc32c & 0xFFFFFFFFL));
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

    static int readInt(byte[] b, int at) {
        return (b[at] & 0xFF) << 24 | (b[at + 1] & 0xFF) << 16 | (b[at + 2] & 0xFF) << 8 | (b[at + 3] & 0xFF);
    }

    static void writeInt(byte[] b, int at, int v) {
        b[at] = (byte) (v >>> 24);
        b[at + 1] = (byte) (v >>> 16);
        b[at + 2] = (byte) (v >>> 8);
        b[at + 3] = (byte) v;
    }
}
