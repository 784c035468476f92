package dev.reprise.cli.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;

/** The report's heading: what ran, where, on which JDK; ratios only compare within one such run. */
final class Environment {
    private Environment() {
    }

    static String header(String commandLine, boolean quick, int warmUps, int runs, List<Workload> workloads) {
        StringBuilder b = new StringBuilder("## reprise bench").append(quick ? " --quick" : "").append(", ")
                .append(LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm"))).append("\n\n");
        b.append("- command: `").append(commandLine).append("`\n");
        b.append("- JDK: ").append(System.getProperty("java.vm.name")).append(' ').append(System.getProperty("java.runtime.version"))
                .append(" (").append(System.getProperty("java.home")).append(")\n");
        b.append("- machine: ").append(Runtime.getRuntime().availableProcessors()).append(" cores, ").append(memory())
                .append(", ").append(System.getProperty("os.name")).append(' ').append(System.getProperty("os.arch")).append('\n');
        b.append("- ").append(warmUps).append(" warm-up and ").append(runs)
                .append(" measured iterations per workload; each iteration runs the modes round-robin ")
                .append("(plain, record TO, record RTO, replay TO, replay RTO), every one a fresh JVM. ")
                .append("Time in main runs from the workload's first statement to its last, as DaCapo's harness ")
                .append("times an iteration (the anchors of the targets were measured so), timed by the bench as ")
                .append("the marks reach it on the program's stderr. Process wall time is the whole run as ")
                .append("`reprise record`/`replay` does it, JVM and Reprise start-up and exit included, without the ")
                .append("`reprise` launcher's own start-up.\n");
        b.append("- workloads:");
        for (Workload w : workloads) {
            b.append(" ").append(w.name()).append(" (").append(w.what()).append("; `").append(w.mainClass()).append(' ')
                    .append(String.join(" ", w.args(quick))).append('`')
                    .append(w.orderedFields().isEmpty() ? "" : ", recorded with `--order-field " + String.join(" --order-field ", w.orderedFields()) + "`")
                    .append(')').append(w == workloads.get(workloads.size() - 1) ? "" : ";");
        }
        return b.append('\n').toString();
    }

    private static String memory() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/meminfo"))) {
                if (line.startsWith("MemTotal:")) {
                    long kb = Long.parseLong(line.substring(9).trim().split("\\s+")[0]);
                    return String.format("%.1f GiB RAM", kb / 1024.0 / 1024.0);
                }
            }
        } catch (IOException | RuntimeException e) {
            // not Linux
        }
        return "RAM unknown";
    }
}
