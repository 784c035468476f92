package dev.reprise.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code reprise} command. */
@Command(name = "reprise", mixinStandardHelpOptions = true, versionProvider = Main.Version.class,
        description = "Deterministic record and replay for Java programs.",
        subcommands = {RecordCommand.class, ReplayCommand.class, InspectCommand.class, BenchCommand.class, ConformanceCommand.class,
            CommandLine.HelpCommand.class},
        exitCodeListHeading = "%nExit status:%n",
        exitCodeList = {"0..255:record and replay: the program's own exit status",
            "2:usage error", "3:replay diverged from the recording", "4:recording unreadable or corrupt"})
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
            System.err.println("reprise: " + usageMessage(ex));
            System.err.println("Try 'reprise --help' for more information.");
            return ExitCodes.USAGE;
        });
        cl.setExecutionExceptionHandler((ex, cmd, parsed) -> {
            System.err.println("reprise: " + ex.getMessage());
            return ExitCodes.USAGE;
        });
        System.exit(cl.execute(args));
    }

    /** Picocli's message, except for an unknown subcommand, which it calls an unmatched argument. */
    private static String usageMessage(CommandLine.ParameterException ex) {
        if (ex instanceof CommandLine.UnmatchedArgumentException u && u.getCommandLine().getParent() == null
                && !u.getUnmatched().isEmpty() && !u.getUnmatched().get(0).startsWith("-")) {
            return "unknown subcommand '" + u.getUnmatched().get(0) + "' (use record, replay, inspect, bench or conformance)";
        }
        return ex.getMessage();
    }

    static void say(String message) {
        System.err.println("reprise: " + message);
    }
}
