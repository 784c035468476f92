package dev.reprise.core.log;

import java.util.Set;

/**
 * Where a replaying JVM's events come from: the recorded streams, by name, each read in order
 * through an {@link EventInput}. {@code RecordingReader} reads a recording's stream files; another
 * origin (a leader feeding a follower) is another implementation, and the replaying agent does
 * not change.
 */
public interface EventSource {
    /** The streams that hold events. */
    Set<String> streamNames();

    /** The events of stream {@code stream}, in order; a stream the source does not hold has none. */
    EventInput open(String stream);
}
