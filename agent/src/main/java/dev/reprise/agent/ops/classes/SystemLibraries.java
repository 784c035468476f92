package dev.reprise.agent.ops.classes;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The program's native libraries whose code reaches the system where no hook sees it: those that
 * import a C function that opens a file or a socket, or reads the clock or the kernel's random
 * numbers (SQLite's JDBC driver opens, reads and writes its database files and reads the time).
 * Their native methods are recorded at their boundary and not run on replay ({@link NativeCalls}):
 * run again, they would read the replaying machine's files, write them, and see another time.
 * A library that computes on what it is given (a compressor) imports none of these and runs on
 * replay as recorded. A native method belongs to such a library if the library exports its JNI
 * function by name; one bound by {@code RegisterNatives} alone is not known, and runs live.
 */
final class SystemLibraries {
    /** What a library imports to reach the system: opening files and sockets, reading clocks and randomness. */
    private static final Set<String> REACHING = Set.of("open", "open64", "openat", "openat64", "fopen", "fopen64",
            "freopen", "creat", "creat64", "opendir", "socket", "socketpair", "connect", "gettimeofday", "clock_gettime",
            "time", "getrandom", "getentropy");
    /**
     * The JNI functions each loaded such library exports. Written as a library loads, read at a
     * native method's first call: a list that copies on write lets calls read it without a lock.
     */
    private static final List<Set<String>> EXPORTS = new CopyOnWriteArrayList<>();
    /** Whether any was loaded: a volatile read is all a native call costs until one is. */
    static volatile boolean any;

    private SystemLibraries() {
    }

    /**
     * Notes the library at {@code file} as the program loads it, recording or replaying (the
     * replay's file is the recording's copy of it, with the same content); returns its name if
     * it reaches the system, else null.
     */
    static String loaded(String file) {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(Path.of(file));
        } catch (IOException | OutOfMemoryError e) {
            return null;
        }
        ElfSymbols symbols = ElfSymbols.of(bytes);
        for (String f : symbols.imported()) {
            if (REACHING.contains(f)) {
                EXPORTS.add(Set.copyOf(symbols.defined()));
                any = true;
                return Path.of(file).getFileName().toString();
            }
        }
        return null;
    }

    /** Whether the JNI function of {@code owner.method(desc)} (internal names) is exported by such a library. */
    static boolean owns(String owner, String method, String desc) {
        String shortName = "Java_" + mangle(owner) + "_" + mangle(method);
        String longName = shortName + "__" + mangle(desc.substring(1, desc.indexOf(')')));
        for (Set<String> exports : EXPORTS) {
            if (exports.contains(shortName) || exports.contains(longName)) {
                return true;
            }
        }
        return false;
    }

    /** How many such libraries are loaded: a decision made with fewer may change. */
    static int count() {
        return EXPORTS.size();
    }

    /** The JNI specification's escaping of a name or descriptor in a native function's symbol. */
    static String mangle(String s) {
        StringBuilder b = new StringBuilder(s.length() + 8);
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '/' -> b.append('_');
                case '_' -> b.append("_1");
                case ';' -> b.append("_2");
                case '[' -> b.append("_3");
                default -> {
                    if (c < 128 && Character.isLetterOrDigit(c)) {
                        b.append(c);
                    } else {
                        b.append("_0").append(String.format("%04x", (int) c));
                    }
                }
            }
        }
        return b.toString();
    }
}
