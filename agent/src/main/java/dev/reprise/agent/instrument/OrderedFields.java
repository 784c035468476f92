package dev.reprise.agent.instrument;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.objectweb.asm.ClassReader;

/**
 * The plain fields {@code record --order-field} names, ordered as synchronization actions like
 * volatile ones: for a program that races on them, whose replay would otherwise read another
 * value than the recording did. {@code owner.[]} names the reference array elements the class's
 * code accesses. Their accesses are bracketed in application classes, which all
 * take the synchronization-action pass, and in the JDK class declaring one, which takes it too.
 * {@code owner.#hash} names no field: the class's objects, which threads raced to hash first,
 * get their identity hash where application code makes them ({@link ConstructedHashesRewriter}).
 * Set once in premain, before any class is transformed; the replay sets the recording's.
 */
public final class OrderedFields {
    /** {@code owner.field}, the owner an internal class name. */
    private static volatile Set<String> fields = Set.of();
    /** The classes declaring them. */
    private static volatile Set<String> owners = Set.of();
    /** The classes declaring the fields among them, not the array elements ({@link #ELEMENTS}). */
    private static volatile Set<String> fieldOwners = Set.of();
    /** Their names without their classes. */
    private static volatile Set<String> names = Set.of();
    /** Whether one of them is a field of a {@code java.util} class. */
    private static volatile boolean inJavaUtil;
    /** The classes named {@code owner.#hash}: their objects are hashed where they are made. */
    private static volatile Set<String> hashedAtConstruction = Set.of();

    /** The name standing for a class's reference array elements: {@code owner.[]}. */
    public static final String ELEMENTS = "[]";
    /** The name standing for the identity hashes of a class's objects: {@code owner.#hash}. */
    private static final String HASHES = "#hash";

    private static final String JAVA_UTIL = "java/util/";

    private OrderedFields() {
    }

    public static void configure(List<String> named) {
        Set<String> declaring = new HashSet<>();
        Set<String> withFields = new HashSet<>();
        Set<String> simple = new HashSet<>();
        Set<String> hashed = new HashSet<>();
        List<String> fieldsAndElements = new ArrayList<>();
        for (String f : named) {
            String owner = f.substring(0, f.lastIndexOf('.'));
            String name = f.substring(f.lastIndexOf('.') + 1);
            if (name.equals(HASHES)) {
                hashed.add(owner);
                continue;
            }
            fieldsAndElements.add(f);
            declaring.add(owner);
            if (!name.equals(ELEMENTS)) {
                withFields.add(owner);
            }
            simple.add(name);
        }
        owners = Set.copyOf(declaring);
        fieldOwners = Set.copyOf(withFields);
        boolean util = false;
        for (String owner : declaring) {
            util |= owner.startsWith(JAVA_UTIL) && owner.indexOf('/', JAVA_UTIL.length()) < 0;
        }
        inJavaUtil = util;
        names = Set.copyOf(simple);
        fields = Set.copyOf(fieldsAndElements);
        hashedAtConstruction = Set.copyOf(hashed);
    }

    /** Whether the objects of {@code internalName} are hashed where application code makes them. */
    static boolean hashesAtConstruction(String internalName) {
        return hashedAtConstruction.contains(internalName);
    }

    /** The classes whose objects are hashed where application code makes them, internal names. */
    static Set<String> hashedAtConstruction() {
        return hashedAtConstruction;
    }

    /** Whether {@code owner.name}, as declared, is one of them. */
    static boolean contains(String owner, String name) {
        Set<String> f = fields;
        return !f.isEmpty() && f.contains(owner + '.' + name);
    }

    /**
     * Whether the reference array elements {@code internalName}'s code reads and writes are
     * ordered, as if each were a volatile field of its array ({@code owner.[]} among them).
     */
    static boolean ordersElementsIn(String internalName) {
        return contains(internalName, ELEMENTS);
    }

    /** Whether {@code internalName} declares one of them. */
    static boolean declaredIn(String internalName) {
        return owners.contains(internalName);
    }

    /** Whether {@code internalName} declares one of the fields among them. */
    static boolean declaresFieldIn(String internalName) {
        return fieldOwners.contains(internalName);
    }

    /** Whether any of them is a field, not array elements. */
    static boolean anyField() {
        return !fieldOwners.isEmpty();
    }

    /** Whether one of them is a field of a {@code java.util} class (a learned race on the program's shared lists). */
    static boolean inJavaUtil() {
        return inJavaUtil;
    }

    /** Whether one of them is called {@code name}, in whatever class. */
    static boolean namesAField(String name) {
        return names.contains(name);
    }

    /**
     * Whether the class's constant pool names a field called as one of them: only then can its
     * code read one ({@link RepeatedReads}).
     */
    static boolean mayBeNamedIn(ClassReader reader) {
        Set<String> n = names;
        return !n.isEmpty() && !Collections.disjoint(n, ConstantPool.names(reader, ConstantPool.NAME_AND_TYPE));
    }
}
