package dev.reprise.tests;

import static dev.reprise.tests.Reprise.corpus;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;

import com.google.gson.JsonElement;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The cache of instrumented classes ({@code REPRISE_CACHE_DIR}): a recording made while it
 * fills replays identically from it, damaged entries are neither trusted nor kept, and a class
 * path class is instrumented anew when the fields it uses change.
 */
class ClassCacheTest {
    /** A library class whose field is volatile or not, and a program that writes it 50 times. */
    private static final String FLAG = "package lib;\npublic final class Flag {\n    public static %sboolean ready;\n}\n";
    private static final String MAIN = "package app;\npublic final class Main {\n    public static void main(String[] args) {\n"
            + "        for (int i = 0; i < 50; i++) {\n            lib.Flag.ready = !lib.Flag.ready;\n        }\n"
            + "        System.out.println(lib.Flag.ready);\n    }\n}\n";

    @TempDir
    Path tmp;

    /**
     * {@link Reprise#record}, without looking for races: a recording that looks has a cache
     * directory of its own (its classes report their field accesses), and these tests are about
     * the cache of the recordings that do not.
     */
    private static Run record(Path dir, List<String> command, byte[] stdin, Map<String, String> env) {
        List<String> args = new ArrayList<>(List.of("record", "--no-learn-races", "-o", dir.toString(), "--"));
        args.addAll(command);
        return Reprise.reprise(args, stdin, env, null);
    }

    @Test
    void recordingsReplayFromTheCacheAndDamagedEntriesAreRebuilt() throws Exception {
        Path cache = tmp.resolve("cache");
        Map<String, String> env = Map.of("REPRISE_CACHE_DIR", cache.toString());
        Path rec = tmp.resolve("rec");
        Run recorded = record(rec, corpus("corpus.juc.Locks"), null, env);
        assertEquals(0, recorded.status(), recorded::toString);

        Map<Path, byte[]> entries = entries(cache);
        assertTrue(entries.keySet().stream().anyMatch(p -> p.getFileName().toString()
                .startsWith("java.util.concurrent.locks.ReentrantLock.")), entries.keySet()::toString);
        assertSameRun(recorded, replay(rec, env));

        Map<Path, byte[]> damaged = new TreeMap<>();
        for (Map.Entry<Path, byte[]> e : entries.entrySet()) {
            byte[] bytes = e.getValue().clone();
            bytes[bytes.length - 1] ^= 0x5A;
            Files.write(e.getKey(), bytes);
            damaged.put(e.getKey(), bytes);
        }
        assertSameRun(recorded, replay(rec, env));
        // Every entry the replay needed was instrumented anew and rewritten, exactly as before.
        Map<Path, byte[]> after = entries(cache);
        int rebuilt = 0;
        for (Map.Entry<Path, byte[]> e : entries.entrySet()) {
            byte[] now = after.get(e.getKey());
            String file = e.getKey().getFileName().toString();
            if (file.equals("quiet-calls") || file.equals("startup") || file.startsWith("pack-")) {
                // Not one class's entry: the verdicts on, and the instrumented bytes of, the
                // classes loaded before the agent, and the pack of those loaded after it, found
                // anew for those the replay loaded, which are not all the recording's.
                assertFalse(java.util.Arrays.equals(now, damaged.get(e.getKey())), "damaged " + file + " kept");
                continue;
            }
            if (!java.util.Arrays.equals(now, damaged.get(e.getKey()))) {
                assertArrayEquals(e.getValue(), now, () -> e.getKey() + " rebuilt differently");
                rebuilt++;
            }
        }
        assertTrue(after.entrySet().stream().anyMatch(e -> e.getKey().getFileName().toString()
                .startsWith("java.util.concurrent.locks.ReentrantLock.")
                && !java.util.Arrays.equals(e.getValue(), damaged.get(e.getKey()))), "ReentrantLock's entry not rebuilt");
        assertTrue(rebuilt > 0);
    }

    /**
     * A lambda's class is a hidden class the JDK spins as the program runs, instrumented where it
     * is defined: taken from the cache in a later run, its method references must still reach the
     * hooks (clocks, an identity hash, a sleep main interrupts), in the recording and its replays.
     */
    @Test
    void aLambdasClassFromTheCacheStillCallsTheHooks() throws Exception {
        Path cache = tmp.resolve("cache");
        Map<String, String> env = Map.of("REPRISE_CACHE_DIR", cache.toString());
        assertEquals(0, record(tmp.resolve("fill"), corpus("corpus.threads.MethodReferences"), null, env).status());
        Set<Path> filled = entries(cache).keySet();
        assertTrue(filled.stream().anyMatch(p -> p.getFileName().toString()
                .startsWith("corpus.threads.MethodReferences$$Lambda")), filled::toString);
        Path rec = tmp.resolve("rec");
        Run recorded = record(rec, corpus("corpus.threads.MethodReferences"), null, env);
        assertEquals(0, recorded.status(), recorded::toString);
        assertTrue(recorded.stdout().contains("worker interrupted"), recorded::toString);
        for (int seed = 1; seed <= 3; seed++) {
            Run replayed = Reprise.reprise(List.of("replay", "--chaos=" + seed, rec.toString()), null, env, null);
            assertSameRun(recorded, replayed);
        }
    }

    /**
     * JFR's exception events make every Throwable's constructor call a JFR class; a cache miss
     * that threw while that class loaded recursed until the stack overflowed (exit status 70).
     */
    @Test
    void recordsWithFlightRecorderExceptionEventsOnAndAnEmptyCache() {
        Map<String, String> env = Map.of("REPRISE_CACHE_DIR", tmp.resolve("cache").toString());
        List<String> command = new ArrayList<>(corpus("corpus.single.Clocks"));
        command.add(1, "-XX:StartFlightRecording=filename=" + tmp.resolve("run.jfr") + ",settings=profile");
        Run recorded = record(tmp.resolve("rec"), command, null, env);
        assertEquals(0, recorded.status(), recorded::toString);
        assertTrue(Files.isRegularFile(tmp.resolve("run.jfr")), recorded::toString);
    }

    /**
     * A class path class is cached too, but the instrumentation of its field accesses depends on
     * the classes declaring the fields: when a library is replaced by a version whose field is
     * volatile, the program's unchanged class must order its accesses to it, exactly as without
     * a cache, and must stop doing so when the old library comes back.
     */
    @Test
    void aCachedClassIsInstrumentedAnewWhenAFieldItUsesChangesToVolatile() throws Exception {
        Flags flags = flags();
        Path app = tmp.resolve("app.jar");
        Path plainLib = flags.plainLib();
        Path volatileLib = flags.volatileLib();
        Programs.jar(app, flags.build(), "app");

        Map<String, String> cached = Map.of("REPRISE_CACHE_DIR", tmp.resolve("cache").toString());
        long plain = syncActions(app, plainLib, cached, "plain-1");
        assertTrue(entries(tmp.resolve("cache")).keySet().stream()
                .anyMatch(p -> p.getFileName().toString().startsWith("app.Main.load.")), "app.Main not cached");
        long ordered = syncActions(app, volatileLib, cached, "volatile-1");
        assertTrue(ordered >= plain + 100, "50 reads and 50 writes of a volatile field: " + plain + " then " + ordered);
        assertEquals(syncActions(app, volatileLib, Map.of("REPRISE_CACHE_DIR", ""), "volatile-uncached"), ordered);
        assertEquals(plain, syncActions(app, plainLib, cached, "plain-2"));
    }

    /**
     * Classes loaded with one class path are read from one pack file, which answers for the fields
     * they use only while every jar the class loader can search stays as it is: a library
     * replaced in place, whether on the class path or named by a jar's manifest, is seen at once.
     */
    @Test
    void aPackedClassIsInstrumentedAnewWhenALibraryIsReplacedInPlace() throws Exception {
        Flags flags = flags();
        Path dir = Files.createDirectories(tmp.resolve("dist"));
        Path lib = dir.resolve("lib.jar");
        Path app = dir.resolve("app.jar");
        Programs.jar(app, flags.build(), "app");
        Path launcher = dir.resolve("launcher.jar");
        Programs.jar(launcher, flags.build(), "app");
        Programs.manifest(launcher, "Class-Path: lib.jar");
        Map<String, String> cached = Map.of("REPRISE_CACHE_DIR", tmp.resolve("cache").toString());
        for (String classPath : List.of(app + java.io.File.pathSeparator + lib, launcher.toString())) {
            Files.copy(flags.plainLib(), lib, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            long plain = syncActions(classPath, cached, "plain-1");
            assertTrue(entries(tmp.resolve("cache")).keySet().stream()
                    .anyMatch(p -> p.getFileName().toString().startsWith("pack-")), "no pack written");
            assertEquals(plain, syncActions(classPath, cached, "plain-2"), "from the pack");
            Files.copy(flags.volatileLib(), lib, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            long ordered = syncActions(classPath, cached, "volatile");
            assertTrue(ordered >= plain + 100, classPath + ": 50 reads and 50 writes of a volatile field: " + plain + " then " + ordered);
            Files.copy(flags.plainLib(), lib, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            assertEquals(plain, syncActions(classPath, cached, "plain-3"), classPath);
        }
    }

    /**
     * Instrumenting the program while the cache fills looks up a class it names and no entry
     * holds, which opens every class path entry, the empty one (the working directory) last; a
     * replay from the filled cache looks nothing up. The program's {@code getResources} walk then
     * opened that entry itself, in the replay only, and the replay diverged: the walk is now made
     * whole and unlogged in both.
     */
    @Test
    void aResourceWalkReplaysFromTheCacheItsRecordingFilled() throws Exception {
        Path build = Programs.compile(tmp.resolve("walk"), Map.of("lib/Gone.java", FLAG.formatted("").replace("Flag", "Gone"),
                "app/Main.java", "package app;\npublic final class Main {\n"
                        + "    public static void main(String[] args) throws Exception {\n"
                        + "        if (args.length > 0) {\n            lib.Gone.ready = true;\n        }\n"
                        + "        System.out.println(java.util.Collections.list(ClassLoader.getSystemClassLoader()"
                        + ".getResources(\"META-INF/MANIFEST.MF\")).size() > 0);\n    }\n}\n"));
        Path app = tmp.resolve("app.jar");
        Programs.jar(app, build, "app");
        Map<String, String> env = Map.of("REPRISE_CACHE_DIR", tmp.resolve("cache").toString());
        Path rec = tmp.resolve("rec");
        Run recorded = record(rec, List.of(Reprise.JAVA, "-cp", app + java.io.File.pathSeparator, "app.Main"), null, env);
        assertEquals(0, recorded.status(), recorded::toString);
        assertEquals("true\n", recorded.stdout(), recorded::toString);
        assertSameRun(recorded, replay(rec, env));
    }

    /**
     * With another java agent in the program's command, start-up instruments the JDK classes it
     * finds instead of using the bytes it kept from runs without one (LoadedClassesTest says when):
     * recordings made either way, in turn on one cache, replay.
     */
    @Test
    void programsWithAnotherJavaAgentRecordAndReplayOnTheSameCache() throws Exception {
        Path build = Programs.compile(tmp.resolve("probe"), Map.of("probe/Agent.java",
                "package probe;\npublic final class Agent {\n    public static void premain(String args, java.lang.instrument.Instrumentation inst) {\n"
                        + "        System.out.println(\"probe agent\");\n    }\n}\n"));
        Path probe = tmp.resolve("probe.jar");
        Programs.jar(probe, build, "probe");
        Programs.manifest(probe, "Premain-Class: probe.Agent");
        Map<String, String> env = Map.of("REPRISE_CACHE_DIR", tmp.resolve("cache").toString());
        List<String> alone = corpus("corpus.single.Clocks");
        List<String> withProbe = new ArrayList<>(List.of(alone.get(0), "-javaagent:" + probe));
        withProbe.addAll(alone.subList(1, alone.size()));
        for (List<String> command : List.of(alone, withProbe, alone, withProbe)) {
            Path rec = tmp.resolve("rec-" + System.nanoTime());
            Run recorded = record(rec, command, null, env);
            assertEquals(0, recorded.status(), recorded::toString);
            assertEquals(command == withProbe, recorded.stdout().startsWith("probe agent\n"), recorded::toString);
            assertSameRun(recorded, replay(rec, env));
        }
    }

    /**
     * The cache holds code the agent loads, so it must be the user's alone: made under umask 000
     * it is still 0700 and 0600, and an entry another user planted, or one others may write, is
     * not used. The entry planted here is well formed: it gives the class of a program that prints
     * "planted" for the bytes of one that prints "genuine", and while it is the user's own and
     * private it does run (what a shared cache let another user do). Only what the run reads is
     * checked: a file others may write among another agent build's entries does not matter.
     */
    @Test
    void aPlantedEntryIsNotUsed() throws Exception {
        Path genuine = tmp.resolve("genuine.jar");
        Programs.buildMain(genuine, "Runtime.getRuntime().availableProcessors(); System.out.println(\"genuine\");");
        Path planted = tmp.resolve("planted.jar");
        Programs.buildMain(planted, "Runtime.getRuntime().availableProcessors(); System.out.println(\"planted\");");
        Path cache = tmp.resolve("cache");
        Map<String, String> env = Map.of("REPRISE_CACHE_DIR", cache.toString());
        Map<String, String> otherEnv = Map.of("REPRISE_CACHE_DIR", tmp.resolve("other").toString());
        List<String> underUmask000 = new ArrayList<>(List.of("sh", "-c", "umask 000; exec \"$@\"", "sh"));
        underUmask000.addAll(Reprise.repriseCommand(List.of("record", "--no-learn-races", "-o", tmp.resolve("r0").toString(), "--")));
        underUmask000.addAll(Programs.command(genuine));
        assertEquals("genuine\n", Reprise.exec(underUmask000, null, env, null).stdout());
        assertEquals("planted\n", record(tmp.resolve("r1"), Programs.command(planted), null, otherEnv).stdout());
        for (Path p : entries(cache).keySet()) {
            assertEquals("rw-------", java.nio.file.attribute.PosixFilePermissions.toString(Files.getPosixFilePermissions(p)), p::toString);
            assertEquals("rwx------", java.nio.file.attribute.PosixFilePermissions.toString(Files.getPosixFilePermissions(p.getParent())), p::toString);
        }
        Path entry = mainEntry(cache);
        // What this run does not read is not its concern: another build's entry others may write.
        Path elsewhere = Files.createDirectories(cache.resolve("classes/0ther/jdk")).resolve("entry");
        Files.write(elsewhere, new byte[1]);
        Files.setPosixFilePermissions(elsewhere, java.nio.file.attribute.PosixFilePermissions.fromString("rw-rw-rw-"));
        byte[] forged = forgeEntry(Files.readAllBytes(entry), Files.readAllBytes(mainEntry(tmp.resolve("other"))));
        for (String how : List.of("none", "owner", "mode")) {
            plant(cache, entry, forged);
            if (how.equals("owner")) {
                Files.setAttribute(entry, "unix:uid", 65534);
            } else if (how.equals("mode")) {
                Files.setPosixFilePermissions(entry, java.nio.file.attribute.PosixFilePermissions.fromString("rw-rw-rw-"));
            }
            Run run = record(tmp.resolve("r-" + how), Programs.command(genuine), null, env);
            if (how.equals("none")) {
                assertEquals("planted\n", run.stdout(), run::toString);
                continue;
            }
            assertEquals("genuine\n", run.stdout(), run::toString);
            assertEquals(1, run.stderr().lines().count(), run::toString);
            assertTrue(run.stderr().startsWith("reprise: not using the class cache " + cache + ": " + entry), run::toString);
            assertTrue(run.stderr().contains(how.equals("owner") ? "belongs to another user" : "writable by others"), run::toString);
        }
    }

    /** Puts {@code forged} in place of {@code entry}, and deletes the packs, so that app.Main is read from it. */
    private static void plant(Path cache, Path entry, byte[] forged) throws Exception {
        Files.deleteIfExists(entry);
        Files.write(entry, forged);
        for (Path p : entries(cache).keySet()) {
            if (p.getFileName().toString().startsWith("pack-")) {
                Files.delete(p);
            }
        }
    }

    /**
     * The entry file {@code own} with the instrumented class of {@code theirs}: an entry file is a
     * magic number, a CRC-32C of the rest, the input's length and bytes, then the entry.
     */
    private static byte[] forgeEntry(byte[] own, byte[] theirs) throws Exception {
        int ownEnd = 12 + java.nio.ByteBuffer.wrap(own).getInt(8);
        int theirEnd = 12 + java.nio.ByteBuffer.wrap(theirs).getInt(8);
        java.io.ByteArrayOutputStream forged = new java.io.ByteArrayOutputStream();
        forged.write(own, 0, ownEnd);
        forged.write(theirs, theirEnd, theirs.length - theirEnd);
        byte[] b = forged.toByteArray();
        java.util.zip.CRC32C crc = new java.util.zip.CRC32C();
        crc.update(b, 8, b.length - 8);
        java.nio.ByteBuffer.wrap(b).putInt(4, (int) crc.getValue());
        return b;
    }

    private static Path mainEntry(Path cache) throws Exception {
        return entries(cache).keySet().stream().filter(p -> p.getFileName().toString().startsWith("app.Main.load."))
                .findFirst().orElseThrow(() -> new AssertionError("no entry for app.Main in " + cache));
    }

    /** Each agent build has its own entries; a run keeps those of the three builds used last, its own among them. */
    @Test
    void entriesOfOlderAgentBuildsAreDeleted() throws Exception {
        Path builds = tmp.resolve("cache/classes");
        long now = System.currentTimeMillis();
        for (int i = 1; i <= 4; i++) {
            Path old = Files.createDirectories(builds.resolve("old" + i + "/jdk"));
            Files.write(old.resolve("entry"), new byte[100]);
            Files.setLastModifiedTime(old.getParent(), java.nio.file.attribute.FileTime.fromMillis(now - i * 60_000L));
        }
        Run recorded = record(tmp.resolve("rec"), corpus("corpus.single.Clocks"), null,
                Map.of("REPRISE_CACHE_DIR", tmp.resolve("cache").toString()));
        assertEquals(0, recorded.status(), recorded::toString);
        List<String> left;
        try (Stream<Path> s = Files.list(builds)) {
            left = s.map(p -> p.getFileName().toString()).sorted().toList();
        }
        assertEquals(3, left.size(), left::toString);
        assertTrue(left.containsAll(List.of("old1", "old2")), left::toString);
    }

    /** {@code app.Main} and {@code lib.Flag} compiled together, and the two versions of the library as jars. */
    private record Flags(Path build, Path plainLib, Path volatileLib) {
    }

    private Flags flags() throws Exception {
        Path plainBuild = Programs.compile(tmp.resolve("plain"), Map.of("lib/Flag.java", FLAG.formatted(""),
                "app/Main.java", MAIN));
        Path volatileBuild = Programs.compile(tmp.resolve("volatile"), Map.of("lib/Flag.java", FLAG.formatted("volatile ")));
        Flags flags = new Flags(plainBuild, tmp.resolve("plain-lib.jar"), tmp.resolve("volatile-lib.jar"));
        Programs.jar(flags.plainLib(), plainBuild, "lib");
        Programs.jar(flags.volatileLib(), volatileBuild, "lib");
        return flags;
    }

    /** The synchronization actions a TO recording of {@code app.Main} on {@code app:lib} logged. */
    private long syncActions(Path app, Path lib, Map<String, String> env, String name) {
        return syncActions(app + java.io.File.pathSeparator + lib, env, name);
    }

    /** The synchronization actions a TO recording of {@code app.Main} on {@code classPath} logged. */
    private long syncActions(String classPath, Map<String, String> env, String name) {
        Path rec = tmp.resolve(name + "-" + System.nanoTime());
        Run recorded = Reprise.reprise(List.of("record", "--order", "to", "-o", rec.toString(), "--", Reprise.JAVA, "-cp",
                classPath, "app.Main"), null, env, null);
        assertEquals(0, recorded.status(), recorded::toString);
        assertEquals("false\n", recorded.stdout(), recorded::toString);
        Run inspect = Reprise.reprise(List.of("inspect", "--json", rec.toString()), null, Map.of(), null);
        assertEquals(0, inspect.status(), inspect::toString);
        long n = 0;
        for (Map.Entry<String, JsonElement> e : Json.parse(inspect.stdout()).getAsJsonObject("eventsByKind").entrySet()) {
            if (e.getKey().startsWith("sync.action")) {
                n += e.getValue().getAsLong();
            }
        }
        return n;
    }

    private static Run replay(Path rec, Map<String, String> env) {
        return Reprise.reprise(List.of("replay", rec.toString()), null, env, null);
    }

    private static void assertSameRun(Run recorded, Run replayed) {
        assertEquals(recorded.stdout(), replayed.stdout(), replayed::toString);
        assertEquals(recorded.status(), replayed.status(), replayed::toString);
    }

    private static Map<Path, byte[]> entries(Path cache) throws Exception {
        Map<Path, byte[]> out = new TreeMap<>();
        List<Path> files = new ArrayList<>();
        try (Stream<Path> s = Files.walk(cache)) {
            s.filter(Files::isRegularFile).forEach(files::add);
        }
        for (Path f : files) {
            out.put(f, Files.readAllBytes(f));
        }
        return out;
    }
}
