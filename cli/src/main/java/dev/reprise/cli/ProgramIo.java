package dev.reprise.cli;

import java.lang.ProcessBuilder.Redirect;
import java.util.function.Consumer;

/**
 * Where a recorded or replayed program's output goes and who is told when its JVM starts. The
 * command line shows the output; {@code reprise bench} captures it to compare runs and watches
 * the process for its memory use.
 */
public record ProgramIo(Redirect out, Redirect err, Consumer<Process> started) {
    /** The program's output on the console, as {@code record} and {@code replay} show it. */
    static final ProgramIo CONSOLE = new ProgramIo(Redirect.INHERIT, Redirect.INHERIT, p -> { });
}
