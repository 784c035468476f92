package dev.reprise.agent.instrument;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;

/** Stack map frame contents the passes need to state themselves. */
final class Frames {
    private Frames() {
    }

    /**
     * Brings {@code locals}, a method's locals at its previous stack map frame, to those of a frame
     * the reader reports ({@code visitFrame}'s type and locals), compressed or not.
     */
    static void advance(List<Object> locals, int type, int numLocal, Object[] local) {
        switch (type) {
            case Opcodes.F_NEW, Opcodes.F_FULL -> {
                locals.clear();
                locals.addAll(Arrays.asList(local).subList(0, numLocal));
            }
            case Opcodes.F_APPEND -> locals.addAll(Arrays.asList(local).subList(0, numLocal));
            case Opcodes.F_CHOP -> locals.subList(Math.max(0, locals.size() - numLocal), locals.size()).clear();
            default -> { } // F_SAME, F_SAME1: the locals stay
        }
    }

    /** The locals at a method's entry: the receiver (unless static), then the parameters. */
    static Object[] entryLocals(String className, boolean isStatic, String desc) {
        List<Object> locals = new ArrayList<>();
        if (!isStatic) {
            locals.add(className);
        }
        for (Type t : Type.getArgumentTypes(desc)) {
            locals.add(switch (t.getSort()) {
                case Type.BOOLEAN, Type.BYTE, Type.CHAR, Type.SHORT, Type.INT -> Opcodes.INTEGER;
                case Type.LONG -> Opcodes.LONG;
                case Type.FLOAT -> Opcodes.FLOAT;
                case Type.DOUBLE -> Opcodes.DOUBLE;
                default -> t.getInternalName();
            });
        }
        return locals.toArray();
    }
}
