package dev.reprise.agent.instrument;

import java.util.ArrayDeque;
import java.util.Collections;
import java.util.Deque;
import java.util.Set;

import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.Handle;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * Where an application class makes an object of a class whose objects a recording saw threads
 * race to hash first ({@code owner.#hash} among the ordered fields), gives the new object its
 * identity hash as its constructor returns ({@code IdentityHashes.constructed}): from the making
 * thread's context, at the same point of every run, whichever thread would hash it first. Only
 * the {@code new C; dup; ...; invokespecial C.<init>} shape compilers emit for an expression is
 * rewritten: after the constructor the copy left on the stack is the new object. Only bodies change.
 */
final class ConstructedHashesRewriter extends ClassVisitor {
    private static final String HASHES = "dev/reprise/agent/runtime/identity/IdentityHashes";

    ConstructedHashesRewriter(ClassVisitor next) {
        super(Opcodes.ASM9, next);
    }

    /** Whether the class names one of the classes whose objects are hashed where they are made. */
    static boolean applies(ClassReader reader) {
        Set<String> hashed = OrderedFields.hashedAtConstruction();
        return !hashed.isEmpty() && !Collections.disjoint(hashed, ConstantPool.names(reader, ConstantPool.CLASS));
    }

    @Override
    public MethodVisitor visitMethod(int access, String name, String desc, String signature, String[] exceptions) {
        return new News(super.visitMethod(access, name, desc, signature, exceptions));
    }

    /**
     * Pairs each {@code new} with its constructor call, innermost first, as they nest in an
     * expression ({@code new A(new B())}); a constructor called on no pending {@code new} is a
     * constructor's own {@code super(...)} or {@code this(...)}, left alone.
     */
    private static final class News extends MethodVisitor {
        /** Per pending {@code new}: its class if it is hashed where made and a {@code dup} followed, else "". */
        private final Deque<String> pending = new ArrayDeque<>();
        /** The class of the {@code new} just visited, until the next instruction shows whether it is a {@code dup}. */
        private String justNew;
        private boolean added;

        News(MethodVisitor mv) {
            super(Opcodes.ASM9, mv);
        }

        /** Settles the {@code new} just visited: {@code dup} says whether it is the expression's shape. */
        private void settle(boolean dup) {
            if (justNew != null) {
                pending.push(dup && OrderedFields.hashesAtConstruction(justNew) ? justNew : "");
                justNew = null;
            }
        }

        @Override
        public void visitTypeInsn(int opcode, String type) {
            settle(false);
            super.visitTypeInsn(opcode, type);
            if (opcode == Opcodes.NEW) {
                justNew = type;
            }
        }

        @Override
        public void visitInsn(int opcode) {
            settle(opcode == Opcodes.DUP);
            super.visitInsn(opcode);
        }

        @Override
        public void visitMethodInsn(int opcode, String owner, String name, String desc, boolean isInterface) {
            settle(false);
            super.visitMethodInsn(opcode, owner, name, desc, isInterface);
            if (opcode == Opcodes.INVOKESPECIAL && name.equals("<init>") && !pending.isEmpty()) {
                String made = pending.pop();
                if (made.equals(owner)) {
                    super.visitInsn(Opcodes.DUP);
                    super.visitMethodInsn(Opcodes.INVOKESTATIC, HASHES, "constructed", "(Ljava/lang/Object;)V", false);
                    added = true;
                }
            }
        }

        @Override
        public void visitVarInsn(int opcode, int var) {
            settle(false);
            super.visitVarInsn(opcode, var);
        }

        @Override
        public void visitIntInsn(int opcode, int operand) {
            settle(false);
            super.visitIntInsn(opcode, operand);
        }

        @Override
        public void visitFieldInsn(int opcode, String owner, String name, String desc) {
            settle(false);
            super.visitFieldInsn(opcode, owner, name, desc);
        }

        @Override
        public void visitLdcInsn(Object value) {
            settle(false);
            super.visitLdcInsn(value);
        }

        @Override
        public void visitJumpInsn(int opcode, Label label) {
            settle(false);
            super.visitJumpInsn(opcode, label);
        }

        @Override
        public void visitInvokeDynamicInsn(String name, String desc, Handle bootstrap, Object... arguments) {
            settle(false);
            super.visitInvokeDynamicInsn(name, desc, bootstrap, arguments);
        }

        @Override
        public void visitIincInsn(int var, int increment) {
            settle(false);
            super.visitIincInsn(var, increment);
        }

        @Override
        public void visitTableSwitchInsn(int min, int max, Label dflt, Label... labels) {
            settle(false);
            super.visitTableSwitchInsn(min, max, dflt, labels);
        }

        @Override
        public void visitLookupSwitchInsn(Label dflt, int[] keys, Label[] labels) {
            settle(false);
            super.visitLookupSwitchInsn(dflt, keys, labels);
        }

        @Override
        public void visitMultiANewArrayInsn(String desc, int dims) {
            settle(false);
            super.visitMultiANewArrayInsn(desc, dims);
        }

        @Override
        public void visitMaxs(int maxStack, int maxLocals) {
            super.visitMaxs(added ? maxStack + 1 : maxStack, maxLocals);
        }
    }
}
