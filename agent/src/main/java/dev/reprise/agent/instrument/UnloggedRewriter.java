package dev.reprise.agent.instrument;

import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

import dev.reprise.agent.ops.JdkInternals;

/**
 * Brackets method bodies on every way out: the JDK methods {@code ops/JdkInternals} lists run
 * without intercepting what they do ({@code Rt.suppress()} ... {@code Rt.unsuppress()}); a
 * static initializer runs in a context of its own ({@code ClassInits.enter(name)}, or
 * {@code enterOrdered} for an application class, ... {@code exit(name)}). Only bodies change, so
 * the pass is valid on retransformation: the JVM runs the initializer of a class it loaded
 * before the agent, and initializes after, as retransformed.
 */
final class UnloggedRewriter extends ClassVisitor {
    private static final String RT = "dev/reprise/agent/runtime/events/Rt";
    private static final String INITS = "dev/reprise/agent/runtime/contexts/ClassInits";

    /** The {@code ClassInits} method that opens the static initializer's bracket. */
    private final String initializerEnter;
    private String className;
    /** Whether the class has stack map frames: an application class may predate them (Java 6). */
    private boolean frames;

    /** {@code initializerEnter}: the {@code ClassInits} method that opens the static initializer's bracket. */
    UnloggedRewriter(ClassVisitor next, String initializerEnter) {
        super(Opcodes.ASM9, next);
        this.initializerEnter = initializerEnter;
    }

    @Override
    public void visit(int version, int access, String name, String signature, String superName, String[] interfaces) {
        this.className = name;
        this.frames = (version & 0xFFFF) >= Opcodes.V1_6;
        super.visit(version, access, name, signature, superName, interfaces);
    }

    @Override
    public MethodVisitor visitMethod(int access, String name, String desc, String signature, String[] exceptions) {
        MethodVisitor mv = super.visitMethod(access, name, desc, signature, exceptions);
        if ((access & (Opcodes.ACC_ABSTRACT | Opcodes.ACC_NATIVE)) != 0) {
            return mv;
        }
        if (name.equals("<clinit>")) {
            return new Bracket(mv, INITS, initializerEnter, "exit", className);
        }
        return !name.equals("<init>") && JdkInternals.unlogged(className, name)
                ? new Bracket(mv, RT, "suppress", "unsuppress", null) : mv;
    }

    private final class Bracket extends InstructionHookVisitor {
        private final Label start = new Label();
        private final Label end = new Label();
        private final Label handler = new Label();
        private final String owner;
        private final String open;
        private final String close;
        /** The calls' one argument, or null for none. */
        private final String argument;
        private final String desc;

        Bracket(MethodVisitor mv, String owner, String open, String close, String argument) {
            super(mv);
            this.owner = owner;
            this.open = open;
            this.close = close;
            this.argument = argument;
            this.desc = argument == null ? "()V" : "(Ljava/lang/String;)V";
        }

        private void call(String method) {
            if (argument != null) {
                super.visitLdcInsn(argument);
            }
            super.visitMethodInsn(Opcodes.INVOKESTATIC, owner, method, desc, false);
        }

        /** The handler's entry follows the method's own, which the reader reports before any code. */
        @Override
        void beforeCode() {
            super.visitTryCatchBlock(start, end, handler, null);
            call(open);
            super.visitLabel(start);
        }

        @Override
        public void visitInsn(int opcode) {
            if (opcode >= Opcodes.IRETURN && opcode <= Opcodes.RETURN) {
                call(close);
            }
            super.visitInsn(opcode);
        }

        @Override
        public void visitMaxs(int maxStack, int maxLocals) {
            super.visitLabel(end);
            super.visitLabel(handler);
            if (frames) {
                super.visitFrame(Opcodes.F_FULL, 0, new Object[0], 1, new Object[] {"java/lang/Throwable"});
            }
            call(close);
            super.visitInsn(Opcodes.ATHROW);
            super.visitMaxs(argument == null ? Math.max(maxStack, 1) : maxStack + 2, maxLocals);
        }
    }
}
