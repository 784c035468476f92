package dev.reprise.agent.runtime.ordering;

import dev.reprise.agent.runtime.identity.HashPartitions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.Random;
import java.util.Set;

import org.junit.jupiter.api.Test;

/** The ordering slots of the identity hashes a thread assigns ({@link HashPartitions#partitioned}). */
class SlotPartitionsTest {
    private static final int PARTITION = SyncOrder.SLOTS / 8;

    @Test
    void aThreadsHashesFallInItsOwnPartitionOfTheSlots() {
        Random random = new Random(42);
        for (int index = 0; index < 20; index++) {
            Set<Integer> slots = new HashSet<>();
            for (int i = 0; i < 2000; i++) {
                int slot = SyncOrder.slotOfKey(HashPartitions.partitioned(random.nextInt() & 0x7FFFFFFF, index));
                assertEquals(index % 8, slot / PARTITION, "thread " + index);
                slots.add(slot);
            }
            assertTrue(slots.size() > PARTITION * 9 / 10, "spread over its partition: " + slots.size());
        }
    }

    @Test
    void otherHashesFallInEveryPartition() {
        Random random = new Random(7);
        int[] perPartition = new int[8];
        for (int i = 0; i < 80_000; i++) {
            perPartition[SyncOrder.slotOfKey(random.nextInt()) / PARTITION]++;
        }
        for (int n : perPartition) {
            assertTrue(n > 9_000 && n < 11_000, java.util.Arrays.toString(perPartition));
        }
    }

    @Test
    void anAssignedHashStaysA31BitValueOtherThanZero() {
        Random random = new Random(3);
        for (int i = 0; i < 10_000; i++) {
            int h = HashPartitions.partitioned(random.nextInt() & 0x7FFFFFFF, random.nextInt(1 << 16));
            assertTrue(h > 0, Integer.toHexString(h));
        }
        assertNotEquals(0, HashPartitions.partitioned(0, 8));
        assertEquals(0x7FFFFFFF & ~(7 << 26) | 5 << 26, HashPartitions.partitioned(0x7FFFFFFF, 13));
    }
}
