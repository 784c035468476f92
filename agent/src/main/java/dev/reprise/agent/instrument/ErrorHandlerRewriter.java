package dev.reprise.agent.instrument;

import java.util.HashSet;
import java.util.Set;

import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.Handle;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * Starts each of an application class's handlers that can catch a {@code StackOverflowError}
 * (its type that error, {@code VirtualMachineError}, {@code Error} or {@code Throwable}) with
 * {@code Rt.caught(e)}: an overflow inside Reprise's work on an event may have left the event's
 * claim held ({@code runtime/Overflows}). Inserted after the handler's frame, before its first
 * instruction, with the exception duplicated on the stack.
 */
final class ErrorHandlerRewriter extends ClassVisitor {
    private static final String RT = "dev/reprise/agent/runtime/Rt";
    private static final Set<String> CATCHES_OVERFLOW = Set.of("java/lang/StackOverflowError",
            "java/lang/VirtualMachineError", "java/lang/Error", "java/lang/Throwable");

    ErrorHandlerRewriter(ClassVisitor next) {
        super(Opcodes.ASM9, next);
    }

    @Override
    public MethodVisitor visitMethod(int access, String name, String desc, String signature, String[] exceptions) {
        return new Handlers(super.visitMethod(access, name, desc, signature, exceptions));
    }

    private static final class Handlers extends MethodVisitor {
        /** The handlers to start with the call; the reader visits every try-catch block before the code. */
        private final Set<Label> handlers = new HashSet<>();
        /** A handler's label was visited: the call goes before the next instruction, after its frame. */
        private boolean pending;

        Handlers(MethodVisitor mv) {
            super(Opcodes.ASM9, mv);
        }

        @Override
        public void visitTryCatchBlock(Label start, Label end, Label handler, String type) {
            if (type != null && CATCHES_OVERFLOW.contains(type)) {
                handlers.add(handler);
            }
            super.visitTryCatchBlock(start, end, handler, type);
        }

        @Override
        public void visitLabel(Label label) {
            super.visitLabel(label);
            if (handlers.contains(label)) {
                pending = true;
            }
        }

        private void beforeInstruction() {
            if (pending) {
                pending = false;
                super.visitInsn(Opcodes.DUP);
                super.visitMethodInsn(Opcodes.INVOKESTATIC, RT, "caught", "(Ljava/lang/Throwable;)V", false);
            }
        }

        @Override
        public void visitMaxs(int maxStack, int maxLocals) {
            super.visitMaxs(handlers.isEmpty() ? maxStack : Math.max(maxStack, 2), maxLocals);
        }

        @Override
        public void visitInsn(int opcode) {
            beforeInstruction();
            super.visitInsn(opcode);
        }

        @Override
        public void visitIntInsn(int opcode, int operand) {
            beforeInstruction();
            super.visitIntInsn(opcode, operand);
        }

        @Override
        public void visitVarInsn(int opcode, int var) {
            beforeInstruction();
            super.visitVarInsn(opcode, var);
        }

        @Override
        public void visitTypeInsn(int opcode, String type) {
            beforeInstruction();
            super.visitTypeInsn(opcode, type);
        }

        @Override
        public void visitFieldInsn(int opcode, String owner, String name, String desc) {
            beforeInstruction();
            super.visitFieldInsn(opcode, owner, name, desc);
        }

        @Override
        public void visitMethodInsn(int opcode, String owner, String name, String desc, boolean itf) {
            beforeInstruction();
            super.visitMethodInsn(opcode, owner, name, desc, itf);
        }

        @Override
        public void visitInvokeDynamicInsn(String name, String desc, Handle bsm, Object... bsmArgs) {
            beforeInstruction();
            super.visitInvokeDynamicInsn(name, desc, bsm, bsmArgs);
        }

        @Override
        public void visitJumpInsn(int opcode, Label label) {
            beforeInstruction();
            super.visitJumpInsn(opcode, label);
        }

        @Override
        public void visitLdcInsn(Object value) {
            beforeInstruction();
            super.visitLdcInsn(value);
        }

        @Override
        public void visitIincInsn(int var, int increment) {
            beforeInstruction();
            super.visitIincInsn(var, increment);
        }

        @Override
        public void visitTableSwitchInsn(int min, int max, Label dflt, Label... labels) {
            beforeInstruction();
            super.visitTableSwitchInsn(min, max, dflt, labels);
        }

        @Override
        public void visitLookupSwitchInsn(Label dflt, int[] keys, Label[] labels) {
            beforeInstruction();
            super.visitLookupSwitchInsn(dflt, keys, labels);
        }

        @Override
        public void visitMultiANewArrayInsn(String desc, int dims) {
            beforeInstruction();
            super.visitMultiANewArrayInsn(desc, dims);
        }
    }
}
