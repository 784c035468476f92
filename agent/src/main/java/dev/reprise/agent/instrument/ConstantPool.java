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

    private ConstantPool() {
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
