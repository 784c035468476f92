package dev.reprise.agent.instrument.cache;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.zip.CRC32C;

import dev.reprise.agent.instrument.ClassFiles;
import dev.reprise.agent.instrument.VolatileFields;
import dev.reprise.core.config.CacheLayout;
import dev.reprise.core.config.JdkClassNames;

/**
 * Classes as instrumented by an earlier run on the same JDK (docs/decisions/0002-class-cache.md:
 * a per-JDK cache). Instrumenting the JDK is most of the agent's start-up, and instrumenting a large
 * library much of a short program's run; a cached class is a file read. The cache only saves
 * work: whatever fails here, the class is instrumented as before.
 *
 * <p>The cache's directory is named by a checksum of the agent jar and by the JDK's version and
 * home, so a rebuilt agent or another JDK never reads another's entries (the instrumentation of
 * a class also depends on its JDK superclasses); only the last few builds used keep theirs. An
 * entry's file ({@link EntryFile}) is named by the class, whether it is being loaded or
 * retransformed, and a checksum of the bytes the JVM gave. A damaged entry is ignored and
 * rewritten. The directory also keeps a pack of entries per class path ({@link ClassPack}), which
 * loaded JDK classes start-up must retransform for {@code QuietCallRewriter}, found by reading
 * class files ({@link QuietVerdictsFile}), and those classes' instrumented bytes in one file
 * ({@link StartupEntriesFile}, {@code LoadedClasses}). Those two files and the entries of classes
 * in the JDK's packages are kept in the run's JDK directory, which differs from its own only when
 * the fields it orders are the JDK's or it looks for races: a program's ordered fields change how
 * its own classes are instrumented, never the JDK's.
 *
 * <p>The cache runs inside the JVM's class loading, so it may load no class of its own there: a
 * class it needed first while that class was being loaded would be circular. It uses java.io
 * only, and {@link #open} runs every path once, before the transformer is installed; the verdicts
 * and start-up files are read and written only by start-up itself, outside any class's loading.
 */
public final class ClassCache {
    private static final String VERDICTS = "quiet-calls";
    private static final String STARTUP = "startup";
    /** How many agent builds keep their entries: a few, for switching between versions. */
    private static final int KEPT_BUILDS = 3;

    private final File dir;
    /** Where the JDK's classes are kept: {@link #dir} itself, or the JDK's directory of the same run. */
    private final File jdkDir;
    private final Map<String, Boolean> verdicts;
    /** The pack of this class path ({@link ClassPack}), read once at start-up. */
    private final ClassPack pack;
    private final ClassPack.Name packName;
    /** Classes this run loaded that the pack lacks; guarded by itself (class loading runs on any thread). */
    private final List<Unpacked> unpacked = new ArrayList<>();
    private final EntryWriter writer;

    /** A class whose entry the next pack should hold: its name, and its bytes' length and checksums. */
    private record Unpacked(String name, int length, int crc32c, int crc32) {
    }

    private ClassCache(File dir, File jdkDir, ClassPack.Name packName, EntryWriter writer) {
        this.dir = dir;
        this.jdkDir = jdkDir;
        this.writer = writer;
        this.verdicts = QuietVerdictsFile.read(new File(jdkDir, VERDICTS));
        this.packName = packName;
        this.pack = ClassPack.read(new File(dir, packName.file()));
    }

    /**
     * The cache under {@code root} for this agent jar and this JDK, the JDK's classes under
     * {@code jdkRoot}; null if it cannot be used.
     */
    public static ClassCache open(Path root, Path jdkRoot, Path agentJar) {
        if (root == null || jdkRoot == null) {
            return null;
        }
        try {
            File dirFile = buildDir(root, agentJar);
            File jdkDir = jdkRoot.equals(root) ? dirFile : buildDir(jdkRoot, agentJar);
            // Every path once: a miss (of a name never written), a write, a hit and its kept fields.
            // The write directly, not queued (EntryWriter), so that the hit can follow it.
            byte[] probe = {(byte) 0xCA, (byte) 0xFE};
            EntryFile.read(file(dirFile, "reprise/Absent", true, Checksums.crc32c(probe)), probe);
            VolatileFields.Declared fields = new VolatileFields.Declared("java/lang/Object", Set.of("f", "g"), Set.of("f"), Set.of("g"), Set.of(), false);
            File probed = file(dirFile, "reprise/Probe", true, Checksums.crc32c(probe));
            EntryFile.write(probed, probe, new CacheEntry(probe, List.of("probe"), List.of("reprise/Probe;f;0;"),
                    CacheEntry.declaredBytes(fields)));
            CacheEntry hit = EntryFile.read(probed, probe);
            // Not the record's equals: its first call spins method handles.
            if (hit == null || !CacheEntry.readDeclared(hit.declared()).volatiles().equals(fields.volatiles())) {
                return null;
            }
            return new ClassCache(dirFile, jdkDir, ClassPack.name(), EntryWriter.start());
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /** This agent build's directory for this JDK under the cache directory {@code root}, made if new. */
    private static File buildDir(Path root, Path agentJar) throws IOException {
        File build = CacheLayout.build(root, agentJar).toFile();
        File builds = build.getParentFile();
        CRC32C home = new CRC32C();
        home.update(System.getProperty("java.home").getBytes(StandardCharsets.UTF_8));
        String jdk = System.getProperty("java.runtime.version").replaceAll("[^A-Za-z0-9._-]", "_");
        Path dir = build.toPath().resolve(jdk + "-" + Long.toHexString(home.getValue()));
        createPrivate(dir);
        build.setLastModified(System.currentTimeMillis());
        pruneBuilds(builds);
        return dir.toFile();
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

    /** The entry an earlier run made from {@code input}, the bytes the JVM gave for class {@code name}; null if none. */
    public CacheEntry get(String name, boolean firstLoad, byte[] input) {
        return EntryFile.read(file(name, firstLoad, input), input);
    }

    /** Keeps {@code entry} for the next run; written off the class's loading ({@link EntryWriter}). */
    public void put(String name, boolean firstLoad, byte[] input, CacheEntry entry) {
        writer.add(file(name, firstLoad, input), input, entry);
    }

    /**
     * The entry of a class that a JDK loader or the application class loader loads, from this
     * class path's pack; null if the pack lacks it.
     */
    public ClassPack.Hit packed(String name, byte[] input) {
        return pack.get(name, input, Checksums.crc32c(input));
    }

    /** Whether this class path's pack may vouch for answers ({@link ClassPack}): its class path is jars only. */
    public boolean packMayVouch() {
        return packName.jarsOnly();
    }

    /**
     * Notes a class, loaded by a JDK loader or the application class loader, for the next pack:
     * its entry was found or written here, or found in the pack and its answers checked.
     */
    public void pack(String name, byte[] input) {
        Unpacked u = new Unpacked(name, input.length, Checksums.crc32c(input), Checksums.crc32(input, 0, input.length));
        synchronized (unpacked) {
            unpacked.add(u);
        }
    }

    /**
     * At exit: writes the entries still queued ({@link EntryWriter}), then the pack anew if this
     * run loaded classes it lacked or checked answers it did not vouch for. Its entries vouch only if the class path is jars only and the application
     * class loader searched nothing a pack cannot stamp ({@link ClassFiles#reach}).
     */
    public void savePack() {
        writer.drain();
        List<Unpacked> todo;
        synchronized (unpacked) {
            todo = new ArrayList<>(unpacked);
            unpacked.clear();
        }
        List<ClassPack.Added> added = new ArrayList<>();
        for (Unpacked u : todo) {
            byte[] entry = EntryFile.rawEntry(file(dirOf(u.name()), u.name(), true, u.crc32c()), u.length(), u.crc32());
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
                SealedFile.replace(new File(dir, packName.file()), content);
                ClassPack.prune(dir);
            }
        } catch (IOException | RuntimeException e) {
            // not kept: the next run reads the entries one file each
        }
    }

    /**
     * Which already loaded JDK classes call into java.util.concurrent ({@code QuietCallRewriter}),
     * by internal name, and which declare a static initializer (under the name followed by
     * {@code .<clinit>}, {@code LoadedClasses}), as earlier runs found from this JDK's class
     * files; add to it, then {@link #saveQuietVerdicts}.
     */
    public Map<String, Boolean> quietVerdicts() {
        return verdicts;
    }

    /** Keeps {@link #quietVerdicts} for the next run. */
    public void saveQuietVerdicts() {
        try {
            QuietVerdictsFile.write(new File(jdkDir, VERDICTS), verdicts);
        } catch (IOException e) {
            // not kept: the next run reads the class files again
        }
    }

    /**
     * The entries of the JDK classes that start-up instruments before the program runs
     * ({@code LoadedClasses}), by internal name, as earlier runs on this JDK left them in one
     * file; none if there is no such file or it is damaged.
     */
    public Map<String, CacheEntry> startupEntries() {
        return StartupEntriesFile.read(new File(jdkDir, STARTUP));
    }

    /** Replaces the file {@link #startupEntries} reads. */
    public void saveStartupEntries(Map<String, CacheEntry> entries) {
        try {
            StartupEntriesFile.write(new File(jdkDir, STARTUP), entries);
        } catch (IOException | RuntimeException e) {
            // not kept: the next run retransforms again
        }
    }

    private File file(String name, boolean firstLoad, byte[] input) {
        return file(dirOf(name), name, firstLoad, Checksums.crc32c(input));
    }

    /** Where class {@code name}'s entries are kept: a class of the JDK's packages in {@link #jdkDir}. */
    private File dirOf(String name) {
        return JdkClassNames.isJdk(name) ? jdkDir : dir;
    }

    private static File file(File dir, String name, boolean firstLoad, int crc32c) {
        return new File(dir, name.replace('/', '.') + (firstLoad ? ".load." : ".retransform.")
                + Long.toHexString(crc32c & 0xFFFFFFFFL));
    }
}
