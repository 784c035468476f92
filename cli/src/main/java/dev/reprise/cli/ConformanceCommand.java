package dev.reprise.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

import dev.reprise.cli.conformance.ProgramList;
import dev.reprise.cli.conformance.Jdk;
import dev.reprise.cli.conformance.Program;
import dev.reprise.cli.conformance.ProgramBuild;
import dev.reprise.cli.conformance.Row;
import dev.reprise.cli.conformance.ConformanceRun;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code reprise conformance}: records and replays real programs nobody tuned Reprise for, on each
 * JDK and with each ordering, and writes the table of which replay and why the others do not.
 */
@Command(name = "conformance", mixinStandardHelpOptions = true,
        description = {"Record and replay real programs from Maven Central, and say which replay.",
            "Each program of the suite (conformance/programs.tsv) is recorded and replayed with --chaos,",
            "under both orderings, on each JDK; the results are written as a Markdown table.",
            "Builds the programs first if needed (mvn, from Maven Central).",
            "Exits with 0 if every program replayed, 3 if any did not."})
final class ConformanceCommand implements Callable<Integer> {
    /** Where the second JDK the project is tested on lives on its machines. */
    static final Path SECOND_JDK = Path.of("/usr/lib/jvm/temurin-25-jdk-amd64");

    @Option(names = "--quick", description = "Only the quick subset (one program of each of several kinds).")
    boolean quick;

    @Option(names = "--only", paramLabel = "NAME", description = "Only this program (repeatable).")
    List<String> only = new ArrayList<>();

    @Option(names = "--jdk", paramLabel = "HOME",
            description = "A JDK to run the programs on (repeatable). Default: the one running reprise, and "
                + "/usr/lib/jvm/temurin-25-jdk-amd64 if present.")
    List<Path> jdkHomes = new ArrayList<>();

    @Option(names = "--replays", paramLabel = "N", defaultValue = "3", description = "Replays of each recording (default 3).")
    int replays;

    @Option(names = "--timeout", paramLabel = "SECONDS", defaultValue = "900",
            description = "Longest a recording may run (default 900); a replay gets five times its recording's time, at least 60 s, at most this.")
    long timeoutSeconds;

    @Option(names = "--out", paramLabel = "FILE",
            description = "The table. Default: CONFORMANCE.md at the repository's root for the whole suite, "
                + "conformance/target/CONFORMANCE-partial.md with --quick or --only.")
    Path out;

    @Override
    public Integer call() throws Exception {
        if (replays < 1 || timeoutSeconds < 1) {
            Main.say("--replays and --timeout must be 1 or more");
            return ExitCodes.USAGE;
        }
        Path root = JavaCommand.agentJar().getParent().getParent().getParent();
        Path suite = root.resolve("conformance");
        if (!Files.isRegularFile(suite.resolve(ProgramList.FILE))) {
            Main.say("no conformance suite at " + suite + " (conformance/" + ProgramList.FILE + "): run reprise from its source tree");
            return ExitCodes.USAGE;
        }
        List<Program> all = ProgramList.read(suite);
        List<Program> chosen = new ArrayList<>();
        for (String n : only) {
            Program p = all.stream().filter(x -> x.name().equals(n)).findFirst().orElse(null);
            if (p == null) {
                Main.say("unknown program '" + n + "' (one of " + String.join(", ", all.stream().map(Program::name).toList()) + ")");
                return ExitCodes.USAGE;
            }
            chosen.add(p);
        }
        if (chosen.isEmpty()) {
            chosen = quick ? all.stream().filter(Program::quick).toList() : all;
        } else if (quick) {
            chosen = chosen.stream().filter(Program::quick).toList();
        }
        if (chosen.isEmpty()) {
            Main.say("no program to run" + (quick && !only.isEmpty() ? ": none of those named is in the quick subset" : ""));
            return ExitCodes.USAGE;
        }
        List<Jdk> jdks;
        try {
            jdks = jdks();
        } catch (IllegalArgumentException e) {
            Main.say(e.getMessage());
            return ExitCodes.USAGE;
        }
        Path table = out != null ? out
                : quick || !only.isEmpty() ? suite.resolve("target").resolve("CONFORMANCE-partial.md") : root.resolve("CONFORMANCE.md");
        Main.say("conformance: building the programs if needed");
        String failed = ProgramBuild.ensure(suite, chosen, suite.resolve("target").resolve("build.log"));
        if (failed != null) {
            Main.say(failed);
            return ExitCodes.USAGE;
        }
        ConformanceRun s = new ConformanceRun(suite, reprise(), TimeUnit.SECONDS.toNanos(timeoutSeconds), replays,
                line -> Main.say("conformance: " + line));
        List<Row> rows = s.run(chosen, jdks, commandLine(), replays, table);
        long ok = rows.stream().filter(Row::ok).count();
        Main.say("conformance: " + ok + " of " + rows.size() + " ok; table in " + table);
        return ok == rows.size() ? 0 : ExitCodes.DIVERGED;
    }

    private List<Jdk> jdks() {
        Set<Path> homes = new LinkedHashSet<>();
        if (jdkHomes.isEmpty()) {
            homes.add(Path.of(System.getProperty("java.home")).toAbsolutePath().normalize());
            if (Files.isDirectory(SECOND_JDK)) {
                homes.add(SECOND_JDK);
            }
        } else {
            jdkHomes.forEach(h -> homes.add(h.toAbsolutePath().normalize()));
        }
        List<Jdk> out = new ArrayList<>();
        for (Path h : homes) {
            out.add(Jdk.at(h));
        }
        return out;
    }

    /** This CLI, started the way the {@code reprise} launcher starts it. */
    private static List<String> reprise() throws Exception {
        Path cli = Path.of(Main.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        return List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-XX:TieredStopAtLevel=1",
                "-XX:+UseSerialGC", "-Dreprise.agent=" + JavaCommand.agentJar(), "-jar", cli.toString());
    }

    private String commandLine() {
        StringBuilder b = new StringBuilder("reprise conformance");
        if (quick) {
            b.append(" --quick");
        }
        only.forEach(n -> b.append(" --only ").append(n));
        jdkHomes.forEach(h -> b.append(" --jdk ").append(h));
        b.append(" --replays ").append(replays);
        return b.toString();
    }
}
