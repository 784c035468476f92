package dev.reprise.agent.ops.classes;

import dev.reprise.agent.ops.CallSite;

/**
 * Iteration order of {@code Set.of} and {@code Map.of}. Their tables are laid out by the elements'
 * hash codes alone, but iteration starts at a slot and runs in a direction drawn from
 * {@code ImmutableCollections.SALT32L}, seeded from {@code System.nanoTime()} while the JVM boots,
 * before any agent. The iterators' reads of that salt (and of {@code REVERSE}, derived from it) are
 * replaced by one fixed value, so every recorded and replayed run iterates alike, with nothing
 * logged. Lookups never read the salt: sets built before the agent started keep working.
 * What the JDK derived from set order during boot (such as the order of module service
 * providers, {@link ModuleProviderOrder}) was fixed with the JVM's own salt.
 */
public final class ImmutableOrder {
    /** Any value in [0, 2^32) works; the JDK uses only its high bits as a start and its low bit as a direction. */
    private static final long SALT = 0x9E37_79B9L;

    private ImmutableOrder() {
    }

    @CallSite(kind = CallSite.Kind.GETSTATIC, owner = "java/util/ImmutableCollections", method = "SALT32L", desc = "J",
            alsoIn = {"java/util/ImmutableCollections$Set12", "java/util/ImmutableCollections$Set12$1",
                    "java/util/ImmutableCollections$SetN$SetNIterator", "java/util/ImmutableCollections$MapN$MapNIterator"})
    public static long salt() {
        return SALT;
    }

    @CallSite(kind = CallSite.Kind.GETSTATIC, owner = "java/util/ImmutableCollections", method = "REVERSE", desc = "Z",
            alsoIn = {"java/util/ImmutableCollections$Set12", "java/util/ImmutableCollections$Set12$1",
                    "java/util/ImmutableCollections$SetN$SetNIterator", "java/util/ImmutableCollections$MapN$MapNIterator"})
    public static boolean reverse() {
        return (SALT & 1) == 0;
    }
}
