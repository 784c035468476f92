package dev.reprise.core.log;

/**
 * The header every event starts with: operation id and whether it threw (one varint, id shifted
 * left by one), call site, argument digest, and the payload's length. The length makes streams
 * self-describing: {@code reprise inspect} counts events without knowing any operation, and
 * replay checks that an operation decoded exactly what was recorded.
 */
public record EventHeader(int op, boolean threw, int site, int digest, int length) {

    /** Writes a header whose length is filled in by {@link EventBuffer#closeLength}; returns the length mark. */
    public static int write(EventBuffer b, int op, boolean threw, int site, int digest) {
        b.putVarLong(((long) op << 1) | (threw ? 1 : 0));
        b.putVarLong(site);
        b.putVarLong(digest & 0xFFFFFFFFL);
        return b.openLength();
    }

    public static EventHeader read(EventInput in) {
        long h = in.getVarLong();
        int site = (int) in.getVarLong();
        int digest = (int) in.getVarLong();
        int length = in.getLength();
        return new EventHeader((int) (h >>> 1), (h & 1) != 0, site, digest, length);
    }
}
