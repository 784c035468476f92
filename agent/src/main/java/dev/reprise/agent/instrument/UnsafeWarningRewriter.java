package dev.reprise.agent.instrument;

import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;

import dev.reprise.agent.ops.environment.UnsafeWarningOps;

/**
 * Precedes each call of one of {@code sun.misc.Unsafe}'s memory-access methods with
 * {@code UnsafeWarningOps.before(thisClass, "method")}, ahead of the synchronization action that
 * brackets the call ({@link SyncActionRewriter}), where the JDK's first-use warning can be an
 * event: see {@link UnsafeWarningOps}. Only in application classes, and only where the JDK warns.
 */
final class UnsafeWarningRewriter extends ClassVisitor {
    private static final String UNSAFE = "sun/misc/Unsafe";
    private static final String HOOK = Type.getInternalName(UnsafeWarningOps.class);
    private String className;
    private int version;

    UnsafeWarningRewriter(ClassVisitor next) {
        super(Opcodes.ASM9, next);
    }

    /** Whether the pass applies to an application class whose constant pool names {@code atomicAccess}. */
    static boolean applies(boolean atomicAccess) {
        return atomicAccess && UnsafeWarningOps.ON;
    }

    @Override
    public void visit(int version, int access, String name, String signature, String superName, String[] interfaces) {
        this.className = name;
        this.version = version & 0xFFFF;
        super.visit(version, access, name, signature, superName, interfaces);
    }

    @Override
    public MethodVisitor visitMethod(int access, String name, String desc, String signature, String[] exceptions) {
        MethodVisitor mv = super.visitMethod(access, name, desc, signature, exceptions);
        // A class constant needs a Java 5 class file.
        return mv == null || version < Opcodes.V1_5 ? mv : new MethodVisitor(Opcodes.ASM9, mv) {
            private boolean added;

            @Override
            public void visitMethodInsn(int opcode, String owner, String method, String mdesc, boolean itf) {
                if (opcode == Opcodes.INVOKEVIRTUAL && owner.equals(UNSAFE) && UnsafeWarningOps.MEMORY_ACCESS.contains(method)) {
                    super.visitLdcInsn(Type.getObjectType(className));
                    super.visitLdcInsn(method);
                    super.visitMethodInsn(Opcodes.INVOKESTATIC, HOOK, "before", "(Ljava/lang/Class;Ljava/lang/String;)V", false);
                    added = true;
                }
                super.visitMethodInsn(opcode, owner, method, mdesc, itf);
            }

            /** The two constants sit above the call's operands. */
            @Override
            public void visitMaxs(int maxStack, int maxLocals) {
                super.visitMaxs(added ? maxStack + 2 : maxStack, maxLocals);
            }
        };
    }
}
