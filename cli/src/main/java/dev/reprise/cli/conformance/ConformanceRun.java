package dev.reprise.cli.conformance;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

import dev.reprise.core.config.Order;

/**
 * A conformance run: every chosen program on every chosen JDK, one after the other, plain once and
 * then recorded and replayed with each ordering. The report is rewritten after every program, so a
 * long run stopped early keeps what it finished.
 */
public final class ConformanceRun {
    private final Path suite;
    private final Trial trial;
    private final Path work;
    private final Consumer<String> progress;

    public ConformanceRun(Path suite, List<String> reprise, long timeoutNanos, int replays, Consumer<String> progress) {
        this.suite = suite;
        this.trial = new Trial(reprise, timeoutNanos, replays);
        this.work = suite.resolve("target").resolve("runs");
        this.progress = progress;
    }

    /** Runs them all, writing the report to {@code out} as it goes; returns the rows. */
    public List<Row> run(List<Program> programs, List<Jdk> jdks, String commandLine, int replays, Path out)
            throws Exception {
        List<Row> rows = new ArrayList<>();
        for (Jdk jdk : jdks) {
            for (Program p : programs) {
                Path dir = work.resolve("jdk" + jdk.feature()).resolve(p.name());
                List<String> command = p.command(suite, jdk.java());
                Launch plain = trial.plain(command, jdk, p, suite, dir.resolve("plain"));
                List<Outcome> outcomes = new ArrayList<>();
                for (Order order : List.of(Order.RTO, Order.TO)) {
                    Outcome o = trial.run(command, jdk, p, suite, order, plain, dir.resolve(order.name().toLowerCase(java.util.Locale.ROOT)));
                    outcomes.add(o);
                    progress.accept(p.name() + " on JDK " + jdk.feature() + ", " + order + ": "
                            + (o.ok() ? "ok" : o.reason() + " (files in " + dir + ")"));
                }
                rows.add(new Row(p, jdk, outcomes));
                Report.write(out, Report.markdown(commandLine, replays, jdks, rows));
            }
        }
        return rows;
    }
}
