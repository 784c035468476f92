package dev.reprise.agent.runtime;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;

/**
 * Small property files the recorder leaves beside its streams for {@code reprise}: the JVM that
 * ran ({@value #JVM}), the operation names by id ({@value #OPS}), and the end marker
 * ({@value #END}) whose presence means the run completed and every stream was flushed (with,
 * under TO, the turns of the events the exit cut off).
 */
public final class RunInfo {
    public static final String JVM = "jvm.properties";
    public static final String OPS = "ops.properties";
    public static final String END = "end.properties";
    /** In {@value #END}, TO only: the turns of events the exit cut off, comma-separated. */
    private static final String CUT_TURNS = "cutTurns";
    /** In {@value #END}, when the run learned races: the plain fields found raced ({@link RaceWatch}), comma-separated. */
    private static final String RACED_FIELDS = "racedFields";
    /** In {@value #END}: why writing the streams failed; they end where it did, and no counts are listed. */
    public static final String WRITE_FAILED = "writeFailed";
    /** In {@value #END}: the program was ended because {@code reprise record} was gone ({@link RecorderWatch}). */
    public static final String RECORDER_GONE = "recorderGone";

    /**
     * How a recorded run that did not complete ended, as replay tells it: whether the JVM went
     * through its exit (a signal, or the recorder's end: {@value #END} written), and why the
     * streams were cut.
     */
    record Ending(boolean exitRan, String writeFailed, boolean recorderGone) {
        String describe(int status) {
            if (writeFailed != null) {
                return "was cut where writing the recording failed (" + writeFailed + ")";
            }
            if (recorderGone) {
                return "was ended when reprise record was killed, while threads still ran";
            }
            String signal = status > 128 ? " by signal " + (status - 128) : "";
            if (exitRan) {
                return "was ended" + signal + " while threads still ran";
            }
            return status > 128 ? "was killed by signal " + (status - 128)
                    : "halted with status " + status + " (Runtime.halt, or the JVM crashed) while threads still ran";
        }
    }

    private RunInfo() {
    }

    static void writeJvm(Path dir) throws IOException {
        Properties p = new Properties();
        for (String k : new String[] {"java.version", "java.vendor", "java.vm.name", "java.home", "os.name", "os.arch"}) {
            p.setProperty(k, System.getProperty(k, ""));
        }
        write(dir.resolve(JVM), p);
    }

    static void writeOps(Path dir) throws IOException {
        Properties p = new Properties();
        for (Map.Entry<Integer, String> e : Op.names().entrySet()) {
            p.setProperty(Integer.toString(e.getKey()), e.getValue());
        }
        write(dir.resolve(OPS), p);
    }

    static void writeEnd(Path dir, Map<String, Long> eventsByThread, long[] cutTurns) throws IOException {
        Properties p = new Properties();
        p.setProperty("completed", "true");
        if (RecorderWatch.fired) {
            p.setProperty(RECORDER_GONE, "true");
        }
        if (cutTurns.length > 0) {
            StringBuilder list = new StringBuilder();
            for (long t : cutTurns) {
                list.append(list.length() == 0 ? "" : ",").append(t);
            }
            p.setProperty(CUT_TURNS, list.toString());
        }
        if (RaceWatch.on()) {
            p.setProperty(RACED_FIELDS, String.join(",", RaceWatch.raced()));
        }
        for (Map.Entry<String, Long> e : new TreeMap<>(eventsByThread).entrySet()) {
            p.setProperty("thread." + e.getKey() + ".events", Long.toString(e.getValue()));
        }
        write(dir.resolve(END), p);
    }

    /** The end marker of a recording whose streams could not all be written: no counts, the failure. */
    static void writeFailedEnd(Path dir, IOException failure) throws IOException {
        Properties p = new Properties();
        p.setProperty(WRITE_FAILED, String.valueOf(failure.getMessage()));
        if (RecorderWatch.fired) {
            p.setProperty(RECORDER_GONE, "true");
        }
        write(dir.resolve(END), p);
    }

    /** Replay: how the recorded run ended, from its end marker. */
    static Ending readEnding(Path dir) throws IOException {
        Path file = dir.resolve(END);
        if (!Files.exists(file)) {
            return new Ending(false, null, false);
        }
        Properties p = new Properties();
        try (java.io.InputStream in = Files.newInputStream(file)) {
            p.load(in);
        }
        return new Ending(p.getProperty(WRITE_FAILED) == null, p.getProperty(WRITE_FAILED),
                p.getProperty(RECORDER_GONE) != null);
    }

    /**
     * The TO turns the exit cut off ({@link SyncOrder#cutTurns}), none if the run did not complete.
     * A list that does not parse is a damaged recording, reported as such.
     */
    static long[] readCutTurns(Path dir) throws IOException {
        Path file = dir.resolve(END);
        if (!Files.exists(file)) {
            return new long[0];
        }
        Properties p = new Properties();
        try (java.io.InputStream in = Files.newInputStream(file)) {
            p.load(in);
        }
        String list = p.getProperty(CUT_TURNS, "");
        if (list.isEmpty()) {
            return new long[0];
        }
        String[] parts = list.split(",");
        long[] turns = new long[parts.length];
        try {
            for (int i = 0; i < parts.length; i++) {
                turns[i] = Long.parseLong(parts[i]);
            }
        } catch (NumberFormatException e) {
            throw new IOException(file + ": " + CUT_TURNS + " is not a list of numbers");
        }
        java.util.Arrays.sort(turns);
        return turns;
    }

    /**
     * In the format {@link Properties#load} reads, sorted, without the date comment
     * {@link Properties#store} writes: formatting that date loads the time-zone names and locale
     * providers, tens of milliseconds of every recording's start-up.
     */
    private static void write(Path file, Properties p) throws IOException {
        StringBuilder text = new StringBuilder();
        for (String key : new TreeMap<>(p).keySet().toArray(new String[0])) {
            escape(key, text);
            text.append('=');
            escape(p.getProperty(key), text);
            text.append('\n');
        }
        Files.deleteIfExists(file);
        Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        try (OutputStream out = Files.newOutputStream(file)) {
            out.write(text.toString().getBytes(java.nio.charset.StandardCharsets.ISO_8859_1));
        }
    }

    /** Letters, digits and {@code ._-/,} as they are; any other character as a backslash-u escape of its code. */
    private static void escape(String s, StringBuilder out) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '_' || c == '-'
                    || c == '/' || c == ',') {
                out.append(c);
            } else {
                out.append("\\u");
                for (int shift = 12; shift >= 0; shift -= 4) {
                    out.append(Character.forDigit((c >> shift) & 0xF, 16));
                }
            }
        }
    }
}
