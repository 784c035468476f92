package dev.reprise.cli;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code reprise} command. */
@Command(name = "reprise", mixinStandardHelpOptions = true, versionProvider = Main.Version.class,
        description = "Deterministic record and replay for Java programs.",
        exitCodeListHeading = "%nExit status:%n",
        exitCodeList = {"0..255:record and replay: the program's own exit status",
            "2:usage error, or no local JDK of the recorded version", "3:replay diverged from the recording", "4:recording unreadable or corrupt"})
public final class Main implements Runnable {
    public static final String VERSION = "0.1.0";

    /**
     * The subcommands, in the order help lists them. Picocli reads a command's annotations when it
     * is added, which takes longer than the rest of a short command's work: only the one named is
     * added, or all when none is (help, a usage error).
     */
    private static final Map<String, Supplier<Object>> SUBCOMMANDS = new LinkedHashMap<>();

    static {
        SUBCOMMANDS.put("record", RecordCommand::new);
        SUBCOMMANDS.put("replay", ReplayCommand::new);
        SUBCOMMANDS.put("back", BackCommand::new);
        SUBCOMMANDS.put("inspect", InspectCommand::new);
        SUBCOMMANDS.put("pack", PackCommand::new);
        SUBCOMMANDS.put("bench", BenchCommand::new);
        SUBCOMMANDS.put("conformance", ConformanceCommand::new);
        SUBCOMMANDS.put("help", CommandLine.HelpCommand::new);
    }

    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            return new String[] {"reprise " + VERSION};
        }
    }

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "a subcommand is required");
    }

    public static void main(String[] args) {
        CommandLine cl = new CommandLine(new Main());
        Supplier<Object> named = args.length > 0 && !args[0].equals("help") ? SUBCOMMANDS.get(args[0]) : null;
        for (Supplier<Object> s : named != null ? List.of(named) : SUBCOMMANDS.values()) {
            cl.addSubcommand(s.get());
        }
        cl.setCaseInsensitiveEnumValuesAllowed(true); // after the subcommands: it applies to those added so far
        cl.setParameterExceptionHandler((ex, a) -> {
            System.err.println("reprise: " + usageMessage(ex, java.util.Arrays.asList(a)));
            System.err.println("Try 'reprise --help' for more information.");
            return ExitCodes.USAGE;
        });
        cl.setExecutionExceptionHandler((ex, cmd, parsed) -> {
            System.err.println("reprise: " + ex.getMessage());
            return ExitCodes.USAGE;
        });
        System.exit(cl.execute(args));
    }

    /**
     * Picocli's message, except for an unknown subcommand, which it calls an unmatched argument,
     * and with a hint for a java option given to {@code record} without {@code --} before the command.
     */
    private static String usageMessage(CommandLine.ParameterException ex, java.util.List<String> args) {
        if (ex instanceof CommandLine.UnmatchedArgumentException u && !u.getUnmatched().isEmpty()) {
            String first = u.getUnmatched().get(0);
            if (u.getCommandLine().getParent() == null && !first.startsWith("-")) {
                return "unknown subcommand '" + first + "' (use record, replay, back, inspect, bench or conformance)";
            }
            if (u.getCommandLine().getCommandName().equals("record") && first.startsWith("-") && !args.contains("--")) {
                return ex.getMessage() + "; put -- before the java command: reprise record [OPTIONS] -- java ...";
            }
        }
        return ex.getMessage();
    }

    static void say(String message) {
        System.err.println("reprise: " + message);
    }
}
