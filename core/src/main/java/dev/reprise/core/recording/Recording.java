package dev.reprise.core.recording;

import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;

/**
 * The layout of a recording directory, the one place that names its files; {@link RecordingWriter}
 * makes them, {@link RecordingReader} reads them. Who writes and who reads each:
 * <ul>
 * <li>{@code streams/t<thread>.rpl}, one per recorded thread ({@link #streamFile}): written by the
 *     recording agent's {@code LogWriter}; verified by {@code reprise replay} and {@code inspect},
 *     then read event by event by the replaying agent.</li>
 * <li>{@value #JVM}: the recorded JVM, written by the recording agent as it starts; {@code record}
 *     copies it into the manifest, for {@code replay} to check the local JDK against.</li>
 * <li>{@value #OPS}: the operations' names by id, written by the recording agent as interception
 *     starts; read by {@code inspect}, which names events by them.</li>
 * <li>{@value #END}: how the run ended ({@link EndOfRun}), written by the recording agent at exit;
 *     read by {@code record} for the manifest's counts, status and completion, by the checks of a
 *     provisional manifest, and by the replaying agent for how a cut run ended and TO's cut turns.</li>
 * <li>{@code <kind>-<crc>-<size>.<ext>} ({@link #copyName}): copies of files the program loaded
 *     code or read archives from and that a replay may not have (native libraries, attached
 *     agents' jars, jars it appended to the class path, archives it wrote, file regions it mapped),
 *     written by the recording agent and used by the replaying one. A native library's copy keeps
 *     its file's name, in a directory named so without the extension.</li>
 * <li>{@value #MANIFEST} and its checksum {@value #SEAL}: written by {@code record} (provisional as
 *     the program starts, final at its end); read and checked by {@code replay} and {@code inspect},
 *     which give the replaying agent what it needs of it (the exit status) on its command line.</li>
 * </ul>
 * The manifest lists the SHA-256 of each of {@link #SIDE_FILES}; the streams' chunks carry their
 * own checksums, and a copy's name its content's.
 */
public abstract class Recording {
    public static final String MANIFEST = "manifest.json";
    /** The SHA-256 of {@value #MANIFEST}, as {@code sha256sum} writes it. */
    public static final String SEAL = "manifest.sha256";
    public static final String JVM = "jvm.properties";
    public static final String OPS = "ops.properties";
    public static final String END = "end.properties";
    /** The agent's side files, each covered by a checksum in the manifest. */
    public static final List<String> SIDE_FILES = List.of(JVM, OPS, END);
    static final String STREAMS = "streams";
    /** A stream's file name is this, the thread's path, then {@link #SUFFIX}. */
    static final String PREFIX = "t";
    static final String SUFFIX = ".rpl";

    final Path dir;

    Recording(Path dir) {
        this.dir = dir;
    }

    /**
     * Whether {@code dir} is laid out as a recording: a manifest beside a directory of streams
     * (complete or not). Other tools' walks of a user's directories leave recordings out.
     */
    public static boolean looksLikeRecording(Path dir) {
        return Files.isRegularFile(dir.resolve(MANIFEST)) && Files.isDirectory(dir.resolve(STREAMS));
    }

    /** The recording directory. */
    public Path path() {
        return dir;
    }

    /** {@code name}, one of the names this class gives, in this recording. */
    public Path file(String name) {
        return dir.resolve(name);
    }

    /** Where the stream of the thread (or class initializer) {@code thread} is, or would be. */
    public Path streamFile(String thread) {
        return dir.resolve(STREAMS).resolve(PREFIX + thread + SUFFIX);
    }

    /** The thread of a stream file {@link RecordingReader#streams} lists: {@code streams/t1.2.rpl} is thread {@code 1.2}. */
    public static String threadOf(Path stream) {
        String n = stream.getFileName().toString();
        return n.substring(PREFIX.length(), n.length() - SUFFIX.length());
    }

    /**
     * The name of the copy of a file of {@code kind} whose content has this CRC-32 and size:
     * {@code native-1a2b3c4d-9120.so}; without {@code ext} (null), the directory that holds such a
     * copy under its file's own name.
     */
    public static String copyName(String kind, long crc32, long size, String ext) {
        String name = String.format("%s-%08x-%d", kind, crc32, size);
        return ext == null ? name : name + "." + ext;
    }

    /** The hex SHA-256 of {@code bytes}: the manifest's checksum of a side file. */
    public static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e); // every JDK has SHA-256
        }
    }

    /** The content of {@value #SEAL} for a manifest of {@code bytes}: {@code sha256sum}'s line. */
    static String sealOf(byte[] bytes) {
        return sha256(bytes) + "  " + MANIFEST + "\n";
    }
}
