package dev.reprise.core.recording;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;

/**
 * What the recording agent's exit leaves in {@value Recording#END}: its presence means the JVM went
 * through its exit. Either every stream was flushed, with the events each holds ({@code threads})
 * and, under TO, the turns drawn by events no stream holds ({@code cutTurns}, sorted), or writing
 * the streams failed ({@code writeFailed}, why; no counts then, the streams end where it did).
 * {@code recorderGone}: the agent ended the program because {@code reprise record} was gone.
 * {@code racedFields}: the plain fields ({@code internal/Class.field}) the run found its threads
 * racing on when it looked for races; null if it did not look. {@code fieldsAlongside}: the fields
 * that go along with them, caches the run filled when first asked in a class one of whose fields
 * raced or was ordered already, to be ordered with them; null if it did not look. {@code exitCalled}: the status the
 * program passed to {@code Runtime.exit}, null if it made no such call (its last thread ended, or a
 * signal ended it): a status of 128 or more is a signal's only when this is null.
 * {@code relaxedTails}: per stream, the relaxed events its thread had counted since its last written
 * event when the exit cut it off, which no stream holds (RTO); absent for a stream with none.
 * {@code polledReferences}: the identity hashes of the references that the program's polls of
 * reference queues returned, sorted and distinct, so that a replay keeps those alive until their
 * poll even where the program let go of them and only the queue held them.
 */
public record EndOfRun(Map<String, Long> threads, long[] cutTurns, String writeFailed, boolean recorderGone,
                       List<String> racedFields, List<String> fieldsAlongside, Integer exitCalled,
                       Map<String, Long> relaxedTails, long[] polledReferences) {
    private static final String COMPLETED = "completed";
    private static final String CUT_TURNS = "cutTurns";
    private static final String POLLED_REFERENCES = "polledReferences";
    private static final String WRITE_FAILED = "writeFailed";
    private static final String RECORDER_GONE = "recorderGone";
    private static final String RACED_FIELDS = "racedFields";
    private static final String FIELDS_ALONGSIDE = "fieldsAlongside";
    private static final String EXIT_CALLED = "exitCalled";
    private static final String THREAD = "thread.";
    private static final String EVENTS = ".events";
    private static final String RELAXED_TAIL = ".relaxedTail";

    /** Every stream flushed, holding {@code threads}' events, with {@code relaxedTails} after them. */
    public static EndOfRun flushed(Map<String, Long> threads, long[] cutTurns, boolean recorderGone,
                                   List<String> racedFields, List<String> fieldsAlongside, Integer exitCalled,
                                   Map<String, Long> relaxedTails, long[] polledReferences) {
        return new EndOfRun(threads, cutTurns, null, recorderGone, racedFields, fieldsAlongside, exitCalled,
                relaxedTails, polledReferences);
    }

    /** Writing the streams failed with {@code why}. */
    public static EndOfRun writeFailed(String why, boolean recorderGone, Integer exitCalled) {
        return new EndOfRun(Map.of(), new long[0], why, recorderGone, null, null, exitCalled, Map.of(), new long[0]);
    }

    /** Whether every stream was flushed, so that {@link #threads} counts their events. */
    public boolean flushed() {
        return writeFailed == null;
    }

    /**
     * Whether a run that exited with {@code status} completed: every stream flushed and the JVM
     * ended by its own exit, not a signal. The manifest's {@code completed}, and what tells the
     * replaying agent whether the recording ends before the program does. A process's status
     * holds the low byte of what the program passed to {@code Runtime.exit} ({@code exit(-1)}
     * is 255), and a signal's 128 plus its number.
     */
    public static boolean completed(EndOfRun end, int status) {
        if (end == null || !end.flushed()) {
            return false;
        }
        return end.exitCalled() != null ? exitedAsCalled(end, status) : status >= 0 && status < 128;
    }

    /** Whether a run that exited with {@code status} was ended by a signal, as far as {@code end} tells. */
    public static boolean bySignal(EndOfRun end, int status) {
        return status > 128 && !exitedAsCalled(end, status);
    }

    /** Whether {@code status} is what the program passed to {@code Runtime.exit}, as the process reports it. */
    private static boolean exitedAsCalled(EndOfRun end, int status) {
        return end != null && end.exitCalled() != null && (end.exitCalled() & 0xff) == status;
    }

    Properties toProperties() {
        Properties p = new Properties();
        if (writeFailed != null) {
            p.setProperty(WRITE_FAILED, writeFailed);
        } else {
            p.setProperty(COMPLETED, "true");
        }
        if (recorderGone) {
            p.setProperty(RECORDER_GONE, "true");
        }
        putNumbers(p, CUT_TURNS, cutTurns);
        putNumbers(p, POLLED_REFERENCES, polledReferences);
        if (racedFields != null) {
            p.setProperty(RACED_FIELDS, String.join(",", racedFields));
        }
        if (fieldsAlongside != null) {
            p.setProperty(FIELDS_ALONGSIDE, String.join(",", fieldsAlongside));
        }
        if (exitCalled != null) {
            p.setProperty(EXIT_CALLED, Integer.toString(exitCalled));
        }
        for (Map.Entry<String, Long> e : threads.entrySet()) {
            p.setProperty(THREAD + e.getKey() + EVENTS, Long.toString(e.getValue()));
        }
        for (Map.Entry<String, Long> e : relaxedTails.entrySet()) {
            p.setProperty(THREAD + e.getKey() + RELAXED_TAIL, Long.toString(e.getValue()));
        }
        return p;
    }

    /** Throws {@link IllegalArgumentException} saying what does not parse. */
    static EndOfRun of(Properties p) {
        Map<String, Long> threads = perThread(p, EVENTS);
        Map<String, Long> tails = perThread(p, RELAXED_TAIL);
        long[] turns = numbers(p, CUT_TURNS);
        long[] polled = numbers(p, POLLED_REFERENCES);
        String raced = p.getProperty(RACED_FIELDS);
        String alongside = p.getProperty(FIELDS_ALONGSIDE);
        String exit = p.getProperty(EXIT_CALLED);
        Integer exitCalled;
        try {
            exitCalled = exit == null ? null : Integer.valueOf(exit);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(EXIT_CALLED + " is not a number");
        }
        return new EndOfRun(threads, turns, p.getProperty(WRITE_FAILED), p.getProperty(RECORDER_GONE) != null,
                list(raced), list(alongside), exitCalled, tails, polled);
    }

    /** The comma-separated names {@code value} holds; null if it is absent. */
    private static List<String> list(String value) {
        return value == null ? null : value.isEmpty() ? List.of() : List.of(value.split(","));
    }

    /** Sets {@code key} to the comma-separated {@code values}, if there are any. */
    private static void putNumbers(Properties p, String key, long[] values) {
        if (values.length > 0) {
            StringBuilder list = new StringBuilder();
            for (long v : values) {
                list.append(list.length() == 0 ? "" : ",").append(v);
            }
            p.setProperty(key, list.toString());
        }
    }

    /** The comma-separated numbers of {@code key}, sorted; none if it is absent. */
    private static long[] numbers(Properties p, String key) {
        String list = p.getProperty(key, "");
        String[] parts = list.isEmpty() ? new String[0] : list.split(",");
        long[] values = new long[parts.length];
        try {
            for (int i = 0; i < parts.length; i++) {
                values[i] = Long.parseLong(parts[i]);
            }
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(key + " is not a list of numbers");
        }
        Arrays.sort(values);
        return values;
    }

    /** The values of the properties {@code thread.PATH} + {@code suffix}, by path. */
    private static Map<String, Long> perThread(Properties p, String suffix) {
        Map<String, Long> values = new TreeMap<>();
        for (String k : p.stringPropertyNames()) {
            if (k.startsWith(THREAD) && k.endsWith(suffix) && k.length() > THREAD.length() + suffix.length()) {
                try {
                    values.put(k.substring(THREAD.length(), k.length() - suffix.length()), Long.parseLong(p.getProperty(k)));
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException(k + " is not a number");
                }
            }
        }
        return values;
    }
}
