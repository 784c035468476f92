package dev.reprise.core.log;

import java.io.IOException;

/**
 * Where a recording JVM's events leave it: one stream per recorded thread or class initializer,
 * each filled through its {@link ThreadLog}. {@link LogWriter} writes them to a recording's
 * stream files; another destination (a leader's followers) is another implementation, and the
 * recording agent does not change.
 */
public interface EventSink {
    /** A new stream, named {@code stream}; it holds nothing until its log commits an event. */
    ThreadLog open(String stream);

    /** Forgets {@code log}, which holds no event, as if it had never been opened. */
    void discard(ThreadLog log);

    /** Hands over every stream's committed events and ends the sink; a stream opened later stays empty. */
    void close() throws IOException;
}
