package dev.reprise.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code reprise} command. */
@Command(name = "reprise", mixinStandardHelpOptions = true, versionProvider = Main.Version.class,
        description = "Deterministic record and replay for Java programs.",
        subcommands = {RecordCommand.class, ReplayCommand.class, BackCommand.class, InspectCommand.class, PackCommand.class, BenchCommand.class, ConformanceCommand.class,
            CommandLine.HelpCommand.class},
        exitCodeListHeading = "%nExit status:%n",
        exitCodeList = {"0..255:record and replay: the program's own exit status",
            "2:usage error, or no local JDK of the recorded version", "3:replay diverged from the recording", "4:recording unreadable or corrupt"})
public final class Main implements Runnable {
    public static final String VERSION = "0.1.0";

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
        CommandLine cl = new CommandLine(new Main()).setCaseInsensitiveEnumValuesAllowed(true);
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
