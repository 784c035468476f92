package dev.reprise.agent.instrument;

import java.util.HashSet;
import java.util.Set;

import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * Starts each of an application class's handlers that can catch a {@code StackOverflowError}
 * (its type that error, {@code VirtualMachineError}, {@code Error} or {@code Throwable}) with
 * {@code Rt.caught(e)}: an overflow inside Reprise's work on an event may have left the event's
 * claim held ({@code runtime/events/Overflows}). Inserted after the handler's frame, before its first
 * instruction, with the exception duplicated on the stack.
 */
final class ErrorHandlerRewriter extends ClassVisitor {
    private static final String RT = "dev/reprise/agent/runtime/events/Rt";
    private static final Set<String> CATCHES_OVERFLOW = Set.of("java/lang/StackOverflowError",
            "java/lang/VirtualMachineError", "java/lang/Error", "java/lang/Throwable");

    ErrorHandlerRewriter(ClassVisitor next) {
        super(Opcodes.ASM9, next);
    }

    @Override
    public MethodVisitor visitMethod(int access, String name, String desc, String signature, String[] exceptions) {
        return new Handlers(super.visitMethod(access, name, desc, signature, exceptions));
    }

    private static final class Handlers extends InstructionHookVisitor {
        /** The handlers to start with the call; the reader visits every try-catch block before the code. */
        private final Set<Label> handlers = new HashSet<>();
        /** A handler's label was visited: the call goes before the next instruction, after its frame. */
        private boolean pending;

        Handlers(MethodVisitor mv) {
            super(mv);
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

        /** Cleared before it emits: what it emits comes back through here. */
        @Override
        void beforeInstruction() {
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
    }
}
