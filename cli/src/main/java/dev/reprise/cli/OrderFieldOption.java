package dev.reprise.cli;

import java.util.List;
import java.util.TreeSet;

/**
 * The fields {@code record --order-field} names: {@code com.example.Cache.entry} becomes
 * {@code com/example/Cache.entry}; {@code com.example.Ring[]}, the reference array elements the
 * class's code reads and writes, becomes {@code com/example/Ring.[]}; {@code com.example.Key#hash},
 * the identity hashes of the class's objects, given where the program makes them, becomes
 * {@code com/example/Key.#hash}.
 */
final class OrderFieldOption {
    /** The internal form's field name for a class's array elements. */
    private static final String ELEMENTS = "[]";
    /** The internal form's field name for the identity hashes of a class's objects. */
    private static final String HASHES = "#hash";

    private OrderFieldOption() {
    }

    /** The fields in internal form, sorted and without repeats; a name that is no CLASS.FIELD or CLASS[] is refused. */
    static List<String> parse(List<String> names) {
        TreeSet<String> fields = new TreeSet<>();
        for (String n : names) {
            String whole = null;
            if (n.endsWith(ELEMENTS)) {
                whole = ELEMENTS;
            } else if (n.endsWith(HASHES)) {
                whole = HASHES;
            }
            if (whole != null && javaName(n.substring(0, n.length() - whole.length()), true)) {
                fields.add(n.substring(0, n.length() - whole.length()).replace('.', '/') + '.' + whole);
                continue;
            }
            int dot = n.lastIndexOf('.');
            if (dot <= 0 || dot == n.length() - 1 || !javaName(n.substring(0, dot), true) || !javaName(n.substring(dot + 1), false)) {
                throw new IllegalArgumentException("--order-field wants CLASS.FIELD, such as com.example.Cache.entry, CLASS[] or CLASS#hash: " + n);
            }
            fields.add(n.substring(0, dot).replace('.', '/') + n.substring(dot));
        }
        return List.copyOf(fields);
    }

    /** {@code internal} (as {@link #parse} gives it) as the user writes it. */
    static String display(String internal) {
        String dotted = internal.replace('/', '.');
        for (String whole : new String[] {ELEMENTS, HASHES}) {
            if (internal.endsWith('.' + whole)) {
                return dotted.substring(0, dotted.length() - whole.length() - 1) + whole;
            }
        }
        return dotted;
    }

    /** {@code internal} in words: "field F of class C", "array elements in class C", or "identity hashes of class C's objects". */
    static String describe(String internal) {
        int dot = internal.lastIndexOf('.');
        String owner = internal.substring(0, dot).replace('/', '.');
        String name = internal.substring(dot + 1);
        if (name.equals(HASHES)) {
            return "identity hashes of the objects of class " + owner;
        }
        return name.equals(ELEMENTS) ? "array elements accessed in class " + owner : "field " + name + " of class " + owner;
    }

    /** Internal forms as the user writes them, comma-separated. */
    static String displayed(List<String> internal) {
        return String.join(", ", internal.stream().map(OrderFieldOption::display).toList());
    }

    private static boolean javaName(String s, boolean qualified) {
        for (String part : qualified ? s.split("\\.", -1) : new String[] {s}) {
            if (part.isEmpty() || !Character.isJavaIdentifierStart(part.charAt(0))
                    || !part.chars().skip(1).allMatch(Character::isJavaIdentifierPart)) {
                return false;
            }
        }
        return true;
    }
}
