package dev.reprise.agent.runtime.events;

import dev.reprise.core.log.RecordingCorruptException;

/**
 * What a replayed stream ({@link ReplayEv}) asks of the replay when it runs past its recording's
 * end or finds it damaged. An interface so that the events need not know the replay's session,
 * which implements it above them; a JVM has one such session, so the calls stay monomorphic.
 */
public interface StreamEnds {
    /**
     * Asked for an event past the end of {@code ctx}'s stream, one that a relaxed event of the
     * recording could be if {@code relaxable}: how many relaxed events the thread takes from here
     * on, at least one; never returns if it may take none.
     */
    long cutTail(ThreadCtx ctx, int op, int site, boolean relaxable);

    /** Asked for an event past the end of {@code ctx}'s stream, which it cannot take: never returns. */
    void endOfRecording(ThreadCtx ctx, int op, int site);

    /** Reports the damaged recording and halts; returns for the caller's {@code throw}. */
    RuntimeException corrupt(RecordingCorruptException e);
}
