package dev.reprise.agent.ops.classes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;

/**
 * Which native libraries reach the system, read from the JDK's own: {@code libnio} opens files
 * and sockets, {@code libmanagement} only asks the JVM; and which library a native method's JNI
 * function is in, by the names the JNI specification gives them.
 */
class SystemLibrariesTest {
    private static final Path LIB = Path.of(System.getProperty("java.home"), "lib");

    @Test
    void aLibraryThatOpensFilesAndSocketsReachesTheSystemAndOwnsItsJniFunctions() {
        assertEquals("libnio.so", SystemLibraries.loaded(LIB.resolve("libnio.so").toString()));
        assertTrue(SystemLibraries.any);
        assertTrue(SystemLibraries.owns("sun/nio/ch/IOUtil", "configureBlocking", "(Ljava/io/FileDescriptor;Z)V"));
        assertFalse(SystemLibraries.owns("sun/nio/ch/IOUtil", "noSuchMethod", "()V"));
    }

    @Test
    void aLibraryThatOnlyAsksTheJvmDoesNot() {
        assertNull(SystemLibraries.loaded(LIB.resolve("libmanagement.so").toString()));
        assertFalse(SystemLibraries.owns("sun/management/GarbageCollectorImpl", "getCollectionCount", "()J"));
    }

    @Test
    void symbolsAreReadFromTheDynamicTable() throws Exception {
        ElfSymbols nio = ElfSymbols.of(Files.readAllBytes(LIB.resolve("libnio.so")));
        assertTrue(nio.defined().contains("Java_sun_nio_ch_IOUtil_configureBlocking"), "exported");
        assertTrue(nio.imported().contains("socket"), "imported from the C library");
        assertFalse(nio.defined().contains("socket"));
        ElfSymbols notElf = ElfSymbols.of("not a library".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
        assertTrue(notElf.defined().isEmpty() && notElf.imported().isEmpty());
        byte[] cut = Files.readAllBytes(LIB.resolve("libnio.so"));
        ElfSymbols truncated = ElfSymbols.of(java.util.Arrays.copyOf(cut, 200));
        assertTrue(truncated.defined().isEmpty(), "a truncated file has none, rather than failing the load");
    }

    /** The escapes of the JNI specification's table: {@code _1}, {@code _2}, {@code _3}, {@code _0xxxx}. */
    @Test
    void namesAreEscapedAsJniSymbols() {
        assertEquals("org_sqlite_core_NativeDB", SystemLibraries.mangle("org/sqlite/core/NativeDB"));
        assertEquals("_1open_1utf8", SystemLibraries.mangle("_open_utf8"));
        assertEquals("_3BLjava_lang_String_2I", SystemLibraries.mangle("[BLjava/lang/String;I"));
        assertEquals("caf_000e9", SystemLibraries.mangle("caf\u00e9"));
    }
}
