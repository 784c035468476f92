package dev.reprise.cli.bench;

import java.io.IOException;
import java.nio.charset.MalformedInputException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** Reads the replayer's divergence report out of a replay's captured stderr. */
public final class DivergenceReport {
    private DivergenceReport() {
    }

    /**
     * The replayer's report in one line: its first line, expected and actual operation, and the
     * innermost frame of the Java stack; {@code null} if the replay's stderr has none.
     */
    public static String summary(Path err) throws IOException {
        List<String> lines;
        try {
            lines = Files.readAllLines(err);
        } catch (MalformedInputException e) {
            return null;
        }
        int start = 0;
        while (start < lines.size() && !lines.get(start).startsWith("reprise: replay diverged")) {
            start++;
        }
        if (start == lines.size()) {
            return null;
        }
        StringBuilder b = new StringBuilder(lines.get(start).substring("reprise: ".length()));
        for (String l : lines.subList(start + 1, lines.size())) {
            String t = l.trim();
            if (t.startsWith("expected:") || t.startsWith("actual:") || t.startsWith("at ")) {
                b.append("; ").append(t.replaceAll("\\s+", " "));
            }
            if (t.startsWith("at ") || !l.startsWith(" ")) {
                break;
            }
        }
        return b.toString();
    }
}
