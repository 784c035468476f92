package dev.reprise.agent.instrument;

import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * In an application class's static initializer, gives each object it stores into a static field
 * its identity hash there ({@code IdentityHashes.published}), before the store: an enum's
 * constants, a singleton, a lock, a {@code ThreadLocal}. Such an object is shared by every thread
 * that uses the class, and the first to hash it would give it its value, a race a replay may run
 * the other way; the initializer's context gives the same value in every run, whichever thread
 * runs it. Only bodies change.
 */
final class InitializerHashesRewriter extends ClassVisitor {
    private static final String HASHES = "dev/reprise/agent/runtime/identity/IdentityHashes";

    InitializerHashesRewriter(ClassVisitor next) {
        super(Opcodes.ASM9, next);
    }

    @Override
    public MethodVisitor visitMethod(int access, String name, String desc, String signature, String[] exceptions) {
        MethodVisitor mv = super.visitMethod(access, name, desc, signature, exceptions);
        return name.equals("<clinit>") ? new Stores(mv) : mv;
    }

    private static final class Stores extends MethodVisitor {
        private boolean added;

        Stores(MethodVisitor mv) {
            super(Opcodes.ASM9, mv);
        }

        @Override
        public void visitFieldInsn(int opcode, String owner, String name, String desc) {
            if (opcode == Opcodes.PUTSTATIC && (desc.charAt(0) == 'L' || desc.charAt(0) == '[')) {
                super.visitInsn(Opcodes.DUP);
                super.visitMethodInsn(Opcodes.INVOKESTATIC, HASHES, "published", "(Ljava/lang/Object;)V", false);
                added = true;
            }
            super.visitFieldInsn(opcode, owner, name, desc);
        }

        @Override
        public void visitMaxs(int maxStack, int maxLocals) {
            super.visitMaxs(added ? maxStack + 1 : maxStack, maxLocals);
        }
    }
}
