package dev.reprise.cli;

import java.util.List;
import java.util.TreeSet;

/** The fields {@code record --order-field} names: {@code com.example.Cache.entry} becomes {@code com/example/Cache.entry}. */
final class OrderedFields {
    private OrderedFields() {
    }

    /** The fields in internal form, sorted and without repeats; a name that is no CLASS.FIELD is refused. */
    static List<String> parse(List<String> names) {
        TreeSet<String> fields = new TreeSet<>();
        for (String n : names) {
            int dot = n.lastIndexOf('.');
            if (dot <= 0 || dot == n.length() - 1 || !javaName(n.substring(0, dot), true) || !javaName(n.substring(dot + 1), false)) {
                throw new IllegalArgumentException("--order-field wants CLASS.FIELD, such as com.example.Cache.entry: " + n);
            }
            fields.add(n.substring(0, dot).replace('.', '/') + n.substring(dot));
        }
        return List.copyOf(fields);
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
