package dev.reprise.cli.debug;

import java.util.List;

import dev.reprise.cli.recording.StreamScan;

/**
 * Where {@code reprise replay --stop-at} stops the replay for a debugger: before one thread's
 * event ({@code PATH:EVENT}, as {@code reprise inspect --events} and divergence reports number
 * them), at the exit (after the program's last event, as the JVM shuts down), or where an
 * exception is thrown that no frame of the program catches.
 */
public record StopAt(Kind kind, String thread, long event) {
    public enum Kind { EVENT, EXIT, EXCEPTION }

    /**
     * Parses and checks {@code spec} against the recording's threads; throws
     * {@link IllegalArgumentException} with a message for the user.
     */
    public static StopAt parse(String spec, List<StreamScan> streams) {
        if (spec.equals("exit")) {
            return new StopAt(Kind.EXIT, null, -1);
        }
        if (spec.equals("exception")) {
            return new StopAt(Kind.EXCEPTION, null, -1);
        }
        int colon = spec.lastIndexOf(':');
        long event;
        try {
            event = colon > 0 ? Long.parseLong(spec.substring(colon + 1)) : -1;
        } catch (NumberFormatException e) {
            event = -1;
        }
        if (event < 0) {
            throw new IllegalArgumentException("--stop-at wants THREAD:EVENT (such as 1:120), 'exit' or 'exception', not '"
                    + spec + "'");
        }
        String thread = spec.substring(0, colon);
        StreamScan stream = streams.stream().filter(s -> s.thread().equals(thread)).findFirst().orElse(null);
        if (stream == null) {
            throw new IllegalArgumentException("--stop-at " + spec + ": the recording has no thread " + thread
                    + " (reprise inspect lists its threads)");
        }
        if (event >= stream.events()) {
            throw new IllegalArgumentException("--stop-at " + spec + ": thread " + thread + " recorded events 0 to "
                    + (stream.events() - 1));
        }
        return new StopAt(Kind.EVENT, thread, event);
    }

    /** The agent's form ({@code AgentConfig.Builder#stopAt}): null where the proxy alone stops the replay. */
    public String agentSpec() {
        return switch (kind) {
            case EVENT -> thread + ":" + event;
            case EXIT -> "exit";
            case EXCEPTION -> null;
        };
    }

    @Override
    public String toString() {
        return kind == Kind.EVENT ? thread + ":" + event : kind.name().toLowerCase(java.util.Locale.ROOT);
    }
}
