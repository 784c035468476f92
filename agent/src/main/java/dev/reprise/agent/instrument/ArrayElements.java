package dev.reprise.agent.instrument;

import org.objectweb.asm.Opcodes;

/**
 * The array element instructions, for the passes that report or order element accesses: which
 * are loads, which take primitives, and how to copy the array to the top of the stack under the
 * index (and the value a store takes, of one or two words) without disturbing them.
 */
final class ArrayElements {
    /** array, index -> array, index, array */
    private static final int[] UNDER_INDEX = {Opcodes.DUP2, Opcodes.POP};
    /** array, index, value -> array, index, value, array (a value of one word) */
    private static final int[] UNDER_VALUE = {Opcodes.DUP2_X1, Opcodes.POP2, Opcodes.DUP_X2};
    /** array, index, value -> array, index, value, array (a long or double) */
    private static final int[] UNDER_WIDE_VALUE = {Opcodes.DUP2_X2, Opcodes.POP2, Opcodes.DUP2_X2, Opcodes.POP};

    private ArrayElements() {
    }

    /**
     * Whether a field of {@code access} and descriptor {@code desc} publishes arrays of references:
     * a volatile one holding such an array. A class that hands its arrays to other threads
     * through a volatile field expects them to read the slots without its lock, while it stores
     * into them under it: Spring's {@code ConcurrentReferenceHashMap} reads its segments' chains
     * so, and a replay that let a reader run before a writer's plain store found an entry the
     * recording had not.
     */
    static boolean publishes(int access, String desc) {
        return (access & Opcodes.ACC_VOLATILE) != 0 && desc.length() > 1 && desc.charAt(0) == '['
                && (desc.charAt(1) == 'L' || desc.charAt(1) == '[');
    }

    /** Whether {@code opcode} loads or stores a primitive array's element. */
    static boolean isPrimitive(int opcode) {
        return opcode >= Opcodes.IALOAD && opcode <= Opcodes.SALOAD && opcode != Opcodes.AALOAD
                || opcode >= Opcodes.IASTORE && opcode <= Opcodes.SASTORE && opcode != Opcodes.AASTORE;
    }

    /** Whether {@code opcode}, an element instruction, loads. */
    static boolean isLoad(int opcode) {
        return opcode >= Opcodes.IALOAD && opcode <= Opcodes.SALOAD;
    }

    /** The instructions that copy the array of element instruction {@code opcode} to the top of the stack. */
    static int[] copyArray(int opcode) {
        if (isLoad(opcode)) {
            return UNDER_INDEX;
        }
        return opcode == Opcodes.LASTORE || opcode == Opcodes.DASTORE ? UNDER_WIDE_VALUE : UNDER_VALUE;
    }
}
