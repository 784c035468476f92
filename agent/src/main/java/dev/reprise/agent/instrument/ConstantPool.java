package dev.reprise.agent.instrument;

import java.util.ArrayList;
import java.util.List;

import org.objectweb.asm.ClassReader;

/**
 * Questions about a class file's constant pool, answered without reading its code: the cheap
 * tests by which a pass decides whether it can apply to a class at all.
 */
final class ConstantPool {
    /** The tag of a class entry. */
    static final int CLASS = 7;
    /** The tag of a name and descriptor, which every field and method reference points to. */
    static final int NAME_AND_TYPE = 12;
    /** The tag of a string of modified UTF-8, which every name is. */
    private static final int UTF8 = 1;

    private ConstantPool() {
    }

    /**
     * Whether one of the constant pool's strings is one of {@code values} (ASCII): compared in
     * place, byte by byte, where the lengths agree, so that a test every class load makes
     * allocates nothing.
     */
    static boolean hasString(ClassReader reader, String... values) {
        for (int i = 1; i < reader.getItemCount(); i++) {
            int offset = reader.getItem(i);
            if (offset <= 0 || reader.readByte(offset - 1) != UTF8) {
                continue;
            }
            int length = reader.readUnsignedShort(offset);
            for (String v : values) {
                if (v.length() == length && sameBytes(reader, offset + 2, v)) {
                    return true;
                }
            }
        }
        return false;
    }

    private static boolean sameBytes(ClassReader reader, int at, String ascii) {
        for (int j = 0; j < ascii.length(); j++) {
            if (reader.readByte(at + j) != ascii.charAt(j)) {
                return false;
            }
        }
        return true;
    }

    /**
     * The names of the entries tagged {@code tag} ({@link #CLASS}, or {@link #NAME_AND_TYPE}: both
     * start with the index of a name). A list, not a predicate the callers pass: a lambda spins a
     * class the first time it runs, and these tests run in every start-up.
     */
    static List<String> names(ClassReader reader, int tag) {
        char[] buf = new char[reader.getMaxStringLength()];
        List<String> names = new ArrayList<>();
        for (int i = 1; i < reader.getItemCount(); i++) {
            int offset = reader.getItem(i);
            if (offset > 0 && reader.readByte(offset - 1) == tag) {
                names.add(reader.readUTF8(offset, buf));
            }
        }
        return names;
    }
}
