package dev.reprise.agent.instrument;

import java.util.Set;

import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

import dev.reprise.agent.ops.JdkInternals;

/**
 * Runs JDK methods without intercepting what they do ({@code ops/JdkInternals},
 * {@link ConcurrencyCallers}): a JDK class's static initializer, when the class is first loaded,
 * the listed methods, and the JDK's callers of {@code java.util.concurrent}. The body is
 * bracketed by {@code Rt.suppress()} and {@code Rt.unsuppress()} on every way out; only the body
 * changes, so the pass is valid on retransformation.
 */
final class UnloggedRewriter extends ClassVisitor {
    private static final String RT = "dev/reprise/agent/runtime/Rt";

    private final boolean initializer;
    private final Set<String> methods;
    private String className;

    /**
     * {@code initializer}: also the static initializer (a first load); {@code methods}: also
     * these (name and descriptor), the class's callers of {@code java.util.concurrent}.
     */
    UnloggedRewriter(ClassVisitor next, boolean initializer, Set<String> methods) {
        super(Opcodes.ASM9, next);
        this.initializer = initializer;
        this.methods = methods;
    }

    @Override
    public void visit(int version, int access, String name, String signature, String superName, String[] interfaces) {
        this.className = name;
        super.visit(version, access, name, signature, superName, interfaces);
    }

    @Override
    public MethodVisitor visitMethod(int access, String name, String desc, String signature, String[] exceptions) {
        MethodVisitor mv = super.visitMethod(access, name, desc, signature, exceptions);
        boolean unlogged = name.equals("<clinit>") ? initializer
                : !name.equals("<init>") && (JdkInternals.unlogged(className, name) || methods.contains(name + desc));
        return unlogged && (access & (Opcodes.ACC_ABSTRACT | Opcodes.ACC_NATIVE)) == 0 ? new Bracket(mv) : mv;
    }

    private final class Bracket extends MethodVisitor {
        private final Label start = new Label();
        private final Label end = new Label();
        private final Label handler = new Label();

        Bracket(MethodVisitor mv) {
            super(Opcodes.ASM9, mv);
        }

        @Override
        public void visitCode() {
            super.visitCode();
            super.visitMethodInsn(Opcodes.INVOKESTATIC, RT, "suppress", "()V", false);
            super.visitLabel(start);
        }

        @Override
        public void visitInsn(int opcode) {
            if (opcode >= Opcodes.IRETURN && opcode <= Opcodes.RETURN) {
                super.visitMethodInsn(Opcodes.INVOKESTATIC, RT, "unsuppress", "()V", false);
            }
            super.visitInsn(opcode);
        }

        @Override
        public void visitMaxs(int maxStack, int maxLocals) {
            super.visitLabel(end);
            super.visitTryCatchBlock(start, end, handler, null);
            super.visitLabel(handler);
            super.visitFrame(Opcodes.F_FULL, 0, new Object[0], 1, new Object[] {"java/lang/Throwable"});
            super.visitMethodInsn(Opcodes.INVOKESTATIC, RT, "unsuppress", "()V", false);
            super.visitInsn(Opcodes.ATHROW);
            super.visitMaxs(Math.max(maxStack, 1), maxLocals);
        }
    }
}
