package dev.reprise.agent.runtime.identity;

/**
 * Where an identity hash carries the partition of the ordering's slots it falls in. The identity
 * hashes a thread assigns name the thread's own partition ({@link #partitioned}); a JVM hash names
 * a random one. {@code SyncOrder} maps a hash to a slot of its partition.
 */
public final class HashPartitions {
    /** Bits of a slot taken from a hash's {@link #SHIFT partition bits}: eight partitions of the slots. */
    public static final int BITS = 3;
    /**
     * Where a hash holds its slot's partition: bits 26-28, which hash tables reach only by folding
     * the high half into the low one ({@code HashMap}: bits 10-12, random again), or in tables of
     * 2^26 buckets and more.
     */
    public static final int SHIFT = 26;
    public static final int MASK = (1 << BITS) - 1;

    private HashPartitions() {
    }

    /**
     * {@code hash} (31 bits, not zero) with the slot partition of thread {@code index}. The
     * identity hashes a thread assigns ({@code IdentityHashes}) put the objects it synchronizes on
     * first, most of them its own new objects, in slots of its own: there the action finds the
     * slot last used by the same thread and is relaxed, where a slot last used by another thread's
     * objects orders it after them. A recording of h2 (two client threads) logged 170 thousand
     * ordered actions without it, 46 thousand with it, most of them volatile writes on pages just
     * cloned ({@code Page.copy}).
     */
    public static int partitioned(int hash, int index) {
        int h = hash & ~(MASK << SHIFT) | (index & MASK) << SHIFT;
        return h != 0 ? h : 1;
    }
}
