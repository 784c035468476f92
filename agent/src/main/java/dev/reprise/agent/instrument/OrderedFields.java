package dev.reprise.agent.instrument;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The plain fields {@code record --order-field} names, ordered as synchronization actions like
 * volatile ones: for a program that races on them, whose replay would otherwise read another
 * value than the recording did. Their accesses are bracketed in application classes, which all
 * take the synchronization-action pass, and in the JDK class declaring one, which takes it too.
 * Set once in premain, before any class is transformed; the replay sets the recording's.
 */
public final class OrderedFields {
    /** {@code owner.field}, the owner an internal class name. */
    private static volatile Set<String> fields = Set.of();
    /** The classes declaring them. */
    private static volatile Set<String> owners = Set.of();

    private OrderedFields() {
    }

    public static void configure(List<String> named) {
        Set<String> declaring = new HashSet<>();
        for (String f : named) {
            declaring.add(f.substring(0, f.lastIndexOf('.')));
        }
        owners = Set.copyOf(declaring);
        fields = Set.copyOf(named);
    }

    /** Whether {@code owner.name}, as declared, is one of them. */
    static boolean contains(String owner, String name) {
        Set<String> f = fields;
        return !f.isEmpty() && f.contains(owner + '.' + name);
    }

    /** Whether {@code internalName} declares one of them. */
    static boolean declaredIn(String internalName) {
        return owners.contains(internalName);
    }
}
