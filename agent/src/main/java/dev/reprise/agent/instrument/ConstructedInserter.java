package dev.reprise.agent.instrument;

import java.util.List;

import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;

/**
 * Adds to each hooked constructor, right after its superclass constructor returns, the call
 * {@code Hook.m(this, args...)}: before that call {@code this} may not be used. The hooked JDK
 * constructors call their superclass constructor first, so its first {@code invokespecial} of a
 * superclass {@code <init>} is that call. No member is added: valid for retransformation.
 */
final class ConstructedInserter extends ClassVisitor {
    private final List<Catalogue.ConstructedHook> hooks;
    private final List<Catalogue.ConstructedHook> applied;
    private String superName;

    ConstructedInserter(ClassVisitor next, List<Catalogue.ConstructedHook> hooks, List<Catalogue.ConstructedHook> applied) {
        super(Opcodes.ASM9, next);
        this.hooks = hooks;
        this.applied = applied;
    }

    @Override
    public void visit(int version, int access, String name, String signature, String superName, String[] interfaces) {
        this.superName = superName;
        super.visit(version, access, name, signature, superName, interfaces);
    }

    @Override
    public MethodVisitor visitMethod(int access, String name, String desc, String signature, String[] exceptions) {
        MethodVisitor mv = super.visitMethod(access, name, desc, signature, exceptions);
        if (!name.equals("<init>")) {
            return mv;
        }
        for (Catalogue.ConstructedHook h : hooks) {
            if (h.desc().equals(desc)) {
                return new AfterSuper(mv, h);
            }
        }
        return mv;
    }

    private final class AfterSuper extends MethodVisitor {
        private final Catalogue.ConstructedHook hook;
        private boolean done;

        AfterSuper(MethodVisitor mv, Catalogue.ConstructedHook hook) {
            super(Opcodes.ASM9, mv);
            this.hook = hook;
        }

        @Override
        public void visitMethodInsn(int opcode, String owner, String name, String desc, boolean itf) {
            super.visitMethodInsn(opcode, owner, name, desc, itf);
            if (!done && opcode == Opcodes.INVOKESPECIAL && name.equals("<init>") && owner.equals(superName)) {
                done = true;
                applied.add(hook);
                super.visitVarInsn(Opcodes.ALOAD, 0);
                int local = 1;
                for (Type t : Type.getArgumentTypes(hook.desc())) {
                    super.visitVarInsn(t.getOpcode(Opcodes.ILOAD), local);
                    local += t.getSize();
                }
                super.visitMethodInsn(Opcodes.INVOKESTATIC, hook.hookOwner(), hook.hookName(), hook.hookDesc(), false);
            }
        }

        /** The receiver and the arguments, pushed at an empty stack (the super call consumed its own). */
        @Override
        public void visitMaxs(int maxStack, int maxLocals) {
            super.visitMaxs(Math.max(maxStack, 1 + (Type.getArgumentsAndReturnSizes(hook.desc()) >> 2)), maxLocals);
        }
    }
}
