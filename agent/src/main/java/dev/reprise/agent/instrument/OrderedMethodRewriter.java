package dev.reprise.agent.instrument;

import java.util.List;

import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;

import dev.reprise.agent.ops.AtomicOps;
import dev.reprise.agent.runtime.Ordered;

/**
 * Makes whole JDK methods ordered operations on their receiver: the body is wrapped in
 * {@code Ordered.enterMethod(this, index)} and, on every way out (returns, and a catch-all
 * handler that rethrows), {@code Ordered.exitMethod()}. Only the body changes, so the pass is
 * valid on retransformation.
 */
final class OrderedMethodRewriter extends ClassVisitor {
    private static final String ORDERED = Type.getInternalName(Ordered.class);

    private final List<AtomicOps.Method> methods;
    private String className;

    /** {@code methods}: the ordered methods; a method's index in the list is its argument digest. */
    OrderedMethodRewriter(ClassVisitor next, List<AtomicOps.Method> methods) {
        super(Opcodes.ASM9, next);
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
        for (int i = 0; i < methods.size(); i++) {
            AtomicOps.Method m = methods.get(i);
            if (m.owner().equals(className) && m.name().equals(name) && m.desc().equals(desc)
                    && (access & (Opcodes.ACC_STATIC | Opcodes.ACC_ABSTRACT | Opcodes.ACC_NATIVE)) == 0) {
                return new Wrapper(mv, i, desc);
            }
        }
        return mv;
    }

    private final class Wrapper extends MethodVisitor {
        private final int index;
        private final String desc;
        private final Label start = new Label();
        private final Label end = new Label();
        private final Label handler = new Label();

        Wrapper(MethodVisitor mv, int index, String desc) {
            super(Opcodes.ASM9, mv);
            this.index = index;
            this.desc = desc;
        }

        @Override
        public void visitCode() {
            super.visitCode();
            super.visitVarInsn(Opcodes.ALOAD, 0);
            super.visitLdcInsn(index);
            super.visitMethodInsn(Opcodes.INVOKESTATIC, ORDERED, "enterMethod", "(Ljava/lang/Object;I)V", false);
            super.visitLabel(start);
        }

        @Override
        public void visitInsn(int opcode) {
            if (opcode >= Opcodes.IRETURN && opcode <= Opcodes.RETURN) {
                super.visitMethodInsn(Opcodes.INVOKESTATIC, ORDERED, "exitMethod", "()V", false);
            }
            super.visitInsn(opcode);
        }

        @Override
        public void visitMaxs(int maxStack, int maxLocals) {
            super.visitLabel(end);
            super.visitTryCatchBlock(start, end, handler, null);
            super.visitLabel(handler);
            Object[] locals = Frames.entryLocals(className, false, desc);
            super.visitFrame(Opcodes.F_FULL, locals.length, locals, 1, new Object[] {"java/lang/Throwable"});
            super.visitMethodInsn(Opcodes.INVOKESTATIC, ORDERED, "exitMethod", "()V", false);
            super.visitInsn(Opcodes.ATHROW);
            super.visitMaxs(Math.max(maxStack, 2), maxLocals);
        }
    }
}
