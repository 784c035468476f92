package dev.reprise.agent.runtime.session;

import java.util.Arrays;

/**
 * The references the program's polls of reference queues returned, by identity hash. A
 * reference the collector enqueued stays reachable from its queue although the program may let
 * go of it (a weak map drops an old table), and the program's later poll returns it. A replay's
 * collector enqueues nothing the recording's did (it keeps the program's referents), so it must
 * itself keep such a reference alive until its poll; only the end of the recording says which
 * ones, so the recording lists them in its end ({@code EndOfRun.polledReferences}).
 */
public final class PolledReferences {
    /** Record: the hashes polled so far, in {@code recorded[0..count)}, unsorted. Guarded by the class. */
    private static long[] recorded = new long[64];
    private static int count;
    /** Replay: the hashes the recording polled, sorted; set before the program's first class is loaded. */
    private static long[] expected = new long[0];

    private PolledReferences() {
    }

    /** Record: a poll returned the reference of identity hash {@code hash}. */
    public static synchronized void polled(int hash) {
        if (count == recorded.length) {
            recorded = Arrays.copyOf(recorded, count * 2);
        }
        recorded[count++] = hash;
    }

    /** Record, at the exit: the hashes polled, sorted and distinct. */
    static synchronized long[] all() {
        long[] sorted = Arrays.copyOf(recorded, count);
        Arrays.sort(sorted);
        int distinct = 0;
        for (int i = 0; i < sorted.length; i++) {
            if (distinct == 0 || sorted[i] != sorted[distinct - 1]) {
                sorted[distinct++] = sorted[i];
            }
        }
        return Arrays.copyOf(sorted, distinct);
    }

    /** Replay, as the session starts: what the recording polled (none if its end is missing). */
    static void expect(long[] hashes) {
        expected = hashes;
    }

    /**
     * Replay: whether the recording polled a reference of identity hash {@code hash}. Another
     * reference may share the hash: it is then kept too, which changes nothing the program sees.
     */
    public static boolean willBePolled(int hash) {
        return Arrays.binarySearch(expected, hash) >= 0;
    }
}
