package dev.reprise.cli.conformance;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * CONFORMANCE.md: what ran, the pass rate per kind and JDK, then one row per program and JDK whose
 * last column is {@code ok} or the reason it is not.
 */
final class Report {
    private Report() {
    }

    static String markdown(String commandLine, int replays, List<Jdk> jdks, List<Row> rows) {
        StringBuilder b = new StringBuilder("# Conformance\n\n");
        b.append("Real programs from Maven Central with fixed inputs (`conformance/programs.tsv`), each recorded once ")
                .append("per ordering in a fresh directory holding its inputs, then replayed ").append(replays)
                .append(" times with `--chaos 1` to `--chaos ").append(replays).append("` from empty directories ")
                .append("with the inputs gone; stdout, stderr and the exit status must match the recording's byte for ")
                .append("byte, and the replay must write nothing. An RTO recording that found races it does not order ")
                .append("(it learns them) is made again, as its own advice says, until one finds none new. A row is `ok` when both ")
                .append("orderings pass.\n\n");
        b.append("- command: `").append(commandLine).append("`, ")
                .append(LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm"))).append('\n');
        for (Jdk j : jdks) {
            b.append("- JDK ").append(j.version()).append(" (").append(j.home()).append(")\n");
        }
        b.append("\n| kind |");
        jdks.forEach(j -> b.append(" JDK ").append(j.feature()).append(" |"));
        b.append("\n|---|");
        jdks.forEach(j -> b.append("---|"));
        b.append('\n');
        Map<String, List<Row>> byKind = new LinkedHashMap<>();
        rows.forEach(r -> byKind.computeIfAbsent(r.program().kind(), k -> new java.util.ArrayList<>()).add(r));
        byKind.put("all", rows);
        byKind.forEach((kind, rs) -> {
            b.append("| ").append(kind).append(" |");
            jdks.forEach(j -> b.append(' ').append(rate(rs, j)).append(" |"));
            b.append('\n');
        });
        b.append("\n| program | kind | JDK | RTO | TO | result |\n|---|---|---|---|---|---|\n");
        for (Row r : rows) {
            b.append("| ").append(r.program().name()).append(" | ").append(r.program().kind()).append(" | ")
                    .append(r.jdk().feature());
            for (Outcome o : r.outcomes()) {
                b.append(" | ").append(o.ok() ? "ok" : "fails");
            }
            b.append(" | ").append(r.result().replace("|", "\\|").replace("\n", " ")).append(" |\n");
        }
        return b.toString();
    }

    private static String rate(List<Row> rows, Jdk jdk) {
        List<Row> on = rows.stream().filter(r -> r.jdk().equals(jdk)).toList();
        if (on.isEmpty()) {
            return "-";
        }
        long ok = on.stream().filter(Row::ok).count();
        return ok + "/" + on.size() + String.format(Locale.ROOT, " (%.0f%%)", 100.0 * ok / on.size());
    }

    static void write(Path file, String markdown) throws IOException {
        Path parent = file.toAbsolutePath().getParent();
        Files.createDirectories(parent);
        Path tmp = parent.resolve(file.getFileName() + ".tmp");
        Files.writeString(tmp, markdown);
        Files.move(tmp, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
    }
}
