package dev.reprise.cli;

import java.util.ArrayList;
import java.util.List;

import dev.reprise.cli.recording.Manifest;
import dev.reprise.cli.recording.RecordingDir;
import dev.reprise.cli.recording.RecordingException;
import dev.reprise.core.recording.EndOfRun;

/**
 * The plain fields a recording found its program racing on without ordering them (the agent's
 * {@code RaceWatch}), kept in its end marker, and what a replay that diverges says of them: the
 * fields, and the command that records the program with them ordered.
 */
final class RacedFields {
    private RacedFields() {
    }

    /** The fields found, none if the run looked and found none; null if it did not look (or did not reach its end). */
    static List<String> of(RecordingDir rec) throws RecordingException {
        EndOfRun end = rec.endOfRun();
        return end == null ? null : end.racedFields();
    }

    /**
     * The fields ordered along with those found: caches filled when first asked, in a class one
     * of whose fields raced or was ordered; none if the run did not look, or its agent did not say.
     */
    static List<String> alongside(RecordingDir rec) throws RecordingException {
        EndOfRun end = rec.endOfRun();
        return end == null || end.fieldsAlongside() == null ? List.of() : end.fieldsAlongside();
    }

    /** What the next recording orders that {@code rec} did not: the fields found and those along; null as {@link #of}. */
    static List<String> toOrder(RecordingDir rec) throws RecordingException {
        List<String> found = of(rec);
        if (found == null) {
            return null;
        }
        List<String> all = new ArrayList<>(found);
        all.addAll(alongside(rec));
        return all;
    }

    /** Words that say which fields go along with those found, and why; empty if none. */
    static String alongsideSaid(List<String> alongside) {
        return alongside.isEmpty() ? "" : ", nor " + OrderFieldOption.displayed(alongside)
                + ", which go along with them (caches their classes fill when first asked, a shared collection's other fields)";
    }

    /** {@code --order-field} options for {@code fields}. */
    static String options(List<String> fields) {
        StringBuilder sb = new StringBuilder();
        for (String f : fields) {
            sb.append(sb.length() == 0 ? "" : " ").append("--order-field ").append(quoted(OrderFieldOption.display(f)));
        }
        return sb.toString();
    }

    /**
     * What a replay of {@code m} that diverged adds to its report: the fields its recording found
     * raced and did not order, and the record command that orders them along with those it did;
     * or, for a recording that did not look for races, how to look. Null if it looked and found none.
     */
    static String divergedAdvice(RecordingDir rec, Manifest m) {
        List<String> found;
        List<String> alongside;
        try {
            found = of(rec);
            alongside = alongside(rec);
        } catch (RecordingException e) {
            return null;
        }
        List<String> words = new ArrayList<>(List.of("reprise", "record"));
        if ("to".equalsIgnoreCase(m.order())) {
            words.add("--order to");
        }
        if (found == null) {
            words.add("--learn-races");
        }
        List<String> ordered = new ArrayList<>(m.fieldsOrdered());
        if (found != null) {
            ordered.addAll(found);
            ordered.addAll(alongside);
        }
        if (!ordered.isEmpty()) {
            words.add(options(ordered));
        }
        words.add("-o NEW_DIR --");
        for (String w : m.command()) {
            words.add(quoted(w));
        }
        String command = String.join(" ", words);
        if (found == null) {
            return "if the program races on plain fields, this finds them, and the recordings after it order them: " + command;
        }
        if (found.isEmpty() && alongside.isEmpty()) {
            return null;
        }
        List<String> described = new ArrayList<>();
        for (String f : found) {
            described.add(OrderFieldOption.describe(f));
        }
        List<String> along = new ArrayList<>();
        for (String f : alongside) {
            along.add(OrderFieldOption.describe(f));
        }
        String goAlong = String.join(", ", along)
                + ", which go along with them (caches of classes whose objects its threads share unordered, a shared collection's other fields)";
        String unordered = found.isEmpty() ? "the recording does not order " + goAlong
                : "the recorded run raced on " + String.join(", ", described) + ", which the recording does not order"
                        + (along.isEmpty() ? "" : ", nor " + goAlong);
        return unordered + "; this records the program with them ordered: " + command;
    }

    /** {@code w} as a POSIX shell reads it back. */
    private static String quoted(String w) {
        return w.matches("[A-Za-z0-9_./:=@%+,-]+") ? w : "'" + w.replace("'", "'\\''") + "'";
    }
}
