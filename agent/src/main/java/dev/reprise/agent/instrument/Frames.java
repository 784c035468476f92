package dev.reprise.agent.instrument;

import java.util.ArrayList;
import java.util.List;

import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;

/** Stack map frame contents the passes need to state themselves. */
final class Frames {
    private Frames() {
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
