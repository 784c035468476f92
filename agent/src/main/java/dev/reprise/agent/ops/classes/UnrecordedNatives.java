package dev.reprise.agent.ops.classes;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import dev.reprise.agent.runtime.events.Divergence;

/**
 * Native libraries whose work reaches the operating system through system calls no hook sees,
 * and whose programs have a Java way to do without them:
 * <ul>
 * <li>Netty's native network transports (epoll, io_uring, kqueue, in Netty and in the copies
 *     libraries shade), known by file name; Netty falls back to the JDK's sockets;
 * <li>foreign-function interfaces, which call any C function: jffi (under JRuby's and Jython's
 *     POSIX layers, jnr-ffi) and JNA, known by the JNI functions the file exports, since they
 *     are loaded from temporary files with random names. Their callers fall back to Java
 *     implementations (jnr-posix's, for one). A recording could not replay such calls, and a
 *     replay running them would reach the replaying machine: the files, processes and clock of
 *     another run, and native addresses that differ in every process.
 * </ul>
 * So a recording refuses to load one (the load throws an {@code UnsatisfiedLinkError} saying
 * why), says so once for each of the two kinds, and its replays throw what it threw.
 */
final class UnrecordedNatives {
    private static final String[] TRANSPORTS = {"netty_transport_native_epoll", "netty_transport_native_io_uring",
        "netty_transport_native_kqueue"};
    /** The prefix of every JNI function a foreign-function library exports: jffi's, then JNA's. */
    private static final byte[][] FOREIGN_EXPORTS = {ascii("Java_com_kenai_jffi_Foreign_"), ascii("Java_com_sun_jna_Native_")};

    /** Set once each kind's note was written; a second note from a racing thread is harmless. */
    private static volatile boolean toldTransport;
    private static volatile boolean toldForeign;

    private UnrecordedNatives() {
    }

    /** The error a recording's load of {@code file} throws, or null if the library may load. */
    static UnsatisfiedLinkError refusal(String file) {
        String name = Path.of(file).getFileName().toString();
        for (String transport : TRANSPORTS) {
            if (name.contains(transport)) {
                if (!toldTransport) {
                    toldTransport = true;
                    Divergence.message("not loading " + name + ": a native transport does its network I/O where Reprise"
                            + " does not record it; the program falls back to the JDK's sockets");
                }
                return new UnsatisfiedLinkError("not loaded under Reprise (native network I/O is not recorded): " + name);
            }
        }
        if (exportsForeignCalls(Path.of(file))) {
            if (!toldForeign) {
                toldForeign = true;
                Divergence.message("not loading " + name + ": a foreign-function library calls the system where Reprise"
                        + " does not record it; the program falls back to Java where it can");
            }
            return new UnsatisfiedLinkError("not loaded under Reprise (foreign function calls are not recorded): " + name);
        }
        return null;
    }

    private static boolean exportsForeignCalls(Path file) {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (IOException | OutOfMemoryError e) {
            return false; // the load itself says what is wrong with the file
        }
        for (byte[] export : FOREIGN_EXPORTS) {
            if (indexOf(bytes, export) >= 0) {
                return true;
            }
        }
        return false;
    }

    private static int indexOf(byte[] bytes, byte[] part) {
        outer:
        for (int i = 0, last = bytes.length - part.length; i <= last; i++) {
            for (int j = 0; j < part.length; j++) {
                if (bytes[i + j] != part[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }
}
