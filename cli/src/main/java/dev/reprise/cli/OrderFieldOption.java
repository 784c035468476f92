package dev.reprise.cli;

import java.util.List;
import java.util.TreeSet;

/**
 * The fields {@code record --order-field} names: {@code com.example.Cache.entry} becomes
 * {@code com/example/Cache.entry}; {@code com.example.Ring[]}, the reference array elements the
 * class's code reads and writes, becomes {@code com/example/Ring.[]}.
 */
final class OrderFieldOption {
    /** The internal form's field name for a class's array elements. */
    private static final String ELEMENTS = "[]";

    private OrderFieldOption() {
    }

    /** The fields in internal form, sorted and without repeats; a name that is no CLASS.FIELD or CLASS[] is refused. */
    static List<String> parse(List<String> names) {
        TreeSet<String> fields = new TreeSet<>();
        for (String n : names) {
            if (n.endsWith(ELEMENTS) && javaName(n.substring(0, n.length() - ELEMENTS.length()), true)) {
                fields.add(n.substring(0, n.length() - ELEMENTS.length()).replace('.', '/') + '.' + ELEMENTS);
                continue;
            }
            int dot = n.lastIndexOf('.');
            if (dot <= 0 || dot == n.length() - 1 || !javaName(n.substring(0, dot), true) || !javaName(n.substring(dot + 1), false)) {
                throw new IllegalArgumentException("--order-field wants CLASS.FIELD, such as com.example.Cache.entry, or CLASS[]: " + n);
            }
            fields.add(n.substring(0, dot).replace('.', '/') + n.substring(dot));
        }
        return List.copyOf(fields);
    }

    /** {@code internal} (as {@link #parse} gives it) as the user writes it. */
    static String display(String internal) {
        String dotted = internal.replace('/', '.');
        return internal.endsWith('.' + ELEMENTS) ? dotted.substring(0, dotted.length() - ELEMENTS.length() - 1) + ELEMENTS : dotted;
    }

    /** {@code internal} in words: "field F of class C", or "array elements in class C". */
    static String describe(String internal) {
        int dot = internal.lastIndexOf('.');
        String owner = internal.substring(0, dot).replace('/', '.');
        String name = internal.substring(dot + 1);
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
