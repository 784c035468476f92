package dev.reprise.agent.instrument.cache;

/**
 * An int in an array as {@code DataOutputStream} writes it, high byte first: the cache's files
 * are written through one and read out of arrays ({@link ByteCursor}, a pack's index), and their
 * seals ({@link SealedFile}) are filled in the array.
 */
final class BigEndian {
    private BigEndian() {
    }

    static int readInt(byte[] b, int at) {
        return (b[at] & 0xFF) << 24 | (b[at + 1] & 0xFF) << 16 | (b[at + 2] & 0xFF) << 8 | (b[at + 3] & 0xFF);
    }

    static void writeInt(byte[] b, int at, int v) {
        b[at] = (byte) (v >>> 24);
        b[at + 1] = (byte) (v >>> 16);
        b[at + 2] = (byte) (v >>> 8);
        b[at + 3] = (byte) v;
    }
}
