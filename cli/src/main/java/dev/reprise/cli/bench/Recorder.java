package dev.reprise.cli.bench;

import java.nio.file.Path;
import java.util.List;

import dev.reprise.cli.ProgramIo;
import dev.reprise.core.config.Order;

/** Records and replays through the {@code record} and {@code replay} commands, in this JVM. */
public interface Recorder {
    /** Exit status of {@code reprise record -o dir --order order [--order-field F]... -- command}. */
    int record(Path dir, Order order, List<String> orderedFields, List<String> command, ProgramIo io) throws Exception;

    /** Exit status of {@code reprise replay dir}. */
    int replay(Path dir, ProgramIo io) throws Exception;
}
