package dev.reprise.agent.instrument;

import java.util.BitSet;

import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.FieldInsnNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.VarInsnNode;
import org.objectweb.asm.tree.analysis.Analyzer;
import org.objectweb.asm.tree.analysis.AnalyzerException;
import org.objectweb.asm.tree.analysis.Frame;
import org.objectweb.asm.tree.analysis.SourceInterpreter;
import org.objectweb.asm.tree.analysis.SourceValue;

/**
 * In a constructor, which field accesses and which calls' operands are on {@code this}, the
 * object under construction, and which call initializes it (the superclass's or another own
 * constructor). A constructor's actions on {@code this} need no order, as nothing else can reach
 * the object yet; but it may act on objects others share: a concurrent queue's iterator walks the
 * queue's nodes in its constructor. Found by the stack's sources ({@link SourceInterpreter}):
 * a value is {@code this} when every instruction that can have produced it loads local 0, and
 * the constructor never stores anything else there.
 *
 * <p>Instructions are named by their ordinal among the method's instructions of their kind, as a
 * visitor counts them when {@link MethodNode#accept} replays the method: field instructions, and
 * method calls.
 */
final class ConstructorThis {
    /** Per field instruction, whether its object is {@code this}. */
    private final BitSet fieldsOnThis = new BitSet();
    /** Per call, a bit per operand, the receiver's first, set where the operand is {@code this}. */
    private final long[] operandsOnThis;
    /** The call that initializes {@code this}, or -1 if none was found. */
    private int initializing = -1;

    private ConstructorThis(int calls) {
        this.operandsOnThis = new long[calls];
    }

    /**
     * The analysis of constructor {@code m} of class {@code owner}, or null if it cannot tell: the
     * code stores into local 0, cannot be analyzed, or no call initializes {@code this}. Then the
     * caller leaves the constructor as it is.
     */
    static ConstructorThis of(String owner, MethodNode m) {
        int calls = 0;
        for (AbstractInsnNode i = m.instructions.getFirst(); i != null; i = i.getNext()) {
            if (i instanceof VarInsnNode v && v.var == 0 && v.getOpcode() >= Opcodes.ISTORE && v.getOpcode() <= Opcodes.ASTORE) {
                return null;
            }
            if (i instanceof MethodInsnNode) {
                calls++;
            }
        }
        Frame<SourceValue>[] frames;
        try {
            frames = new Analyzer<>(new SourceInterpreter()).analyze(owner, m);
        } catch (AnalyzerException | RuntimeException e) {
            return null;
        }
        ConstructorThis self = new ConstructorThis(calls);
        int fields = 0;
        int call = 0;
        for (AbstractInsnNode i = m.instructions.getFirst(); i != null; i = i.getNext()) {
            Frame<SourceValue> f = frames[m.instructions.indexOf(i)];
            if (i instanceof FieldInsnNode field) {
                int depth = field.getOpcode() == Opcodes.GETFIELD ? 1 : field.getOpcode() == Opcodes.PUTFIELD ? 2 : 0;
                if (depth > 0 && f != null && isThis(f.getStack(f.getStackSize() - depth))) {
                    self.fieldsOnThis.set(fields);
                }
                fields++;
            } else if (i instanceof MethodInsnNode method) {
                if (f != null && method.getOpcode() != Opcodes.INVOKESTATIC) {
                    int entries = Type.getArgumentTypes(method.desc).length + 1;
                    int receiver = f.getStackSize() - entries;
                    for (int k = 0; k < Math.min(entries, 64); k++) {
                        if (isThis(f.getStack(receiver + k))) {
                            self.operandsOnThis[call] |= 1L << k;
                        }
                    }
                    if (self.initializing < 0 && method.getOpcode() == Opcodes.INVOKESPECIAL && method.name.equals("<init>")
                            && (self.operandsOnThis[call] & 1L) != 0) {
                        self.initializing = call;
                    }
                }
                call++;
            }
        }
        return self.initializing >= 0 ? self : null;
    }

    private static boolean isThis(SourceValue v) {
        if (v.insns.isEmpty()) {
            return false;
        }
        for (AbstractInsnNode i : v.insns) {
            if (!(i instanceof VarInsnNode load) || load.getOpcode() != Opcodes.ALOAD || load.var != 0) {
                return false;
            }
        }
        return true;
    }

    /** Whether field instruction {@code ordinal} accesses a field of {@code this}. */
    boolean fieldOnThis(int ordinal) {
        return fieldsOnThis.get(ordinal);
    }

    /** Whether operand {@code entry} of call {@code ordinal} (0 the receiver, 1 the first argument) is {@code this}. */
    boolean operandOnThis(int ordinal, int entry) {
        return entry < 64 && (operandsOnThis[ordinal] & (1L << entry)) != 0;
    }

    /** Whether call {@code ordinal} is the one that initializes {@code this}. */
    boolean initializes(int ordinal) {
        return ordinal == initializing;
    }
}
