package dev.reprise.agent.instrument;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import org.junit.jupiter.api.Test;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * A synchronized instance method whose stack map frame chops every local, {@code this} included,
 * before a return (as the Kotlin compiler's bundled classes have): converted into a synchronized
 * block, it must still verify, and release its monitor on the way out.
 */
class ThisDroppingFrameTest {
    private static final String NAME = "programs/ChoppedThis";

    @Test
    void aSynchronizedMethodWhoseFrameChopsThisVerifiesAndReleasesItsMonitor() throws Exception {
        Class<?> loaded = InstrumentedClasses.define(NAME, classFile(), "a synchronized method is converted");
        Object subject = loaded.getDeclaredConstructor().newInstance();
        loaded.getMethod("mark", int.class).invoke(subject, 5);
        loaded.getMethod("mark", int.class).invoke(subject, 0);
        assertEquals(5, loaded.getField("count").get(subject));
        assertFalse(Thread.holdsLock(subject), "each return released the monitor");
    }

    /**
     * {@code public int count; public synchronized void mark(int n)}: if n is not 0, stores it into
     * count; both paths meet at a return whose frame (a chop of both locals) lists none.
     */
    private static byte[] classFile() {
        ClassWriter cw = new ClassWriter(ClassWriter.COMPUTE_MAXS);
        cw.visit(Opcodes.V17, Opcodes.ACC_PUBLIC | Opcodes.ACC_SUPER, NAME, null, "java/lang/Object", null);
        cw.visitField(Opcodes.ACC_PUBLIC, "count", "I", null, null).visitEnd();
        MethodVisitor init = cw.visitMethod(Opcodes.ACC_PUBLIC, "<init>", "()V", null, null);
        init.visitCode();
        init.visitVarInsn(Opcodes.ALOAD, 0);
        init.visitMethodInsn(Opcodes.INVOKESPECIAL, "java/lang/Object", "<init>", "()V", false);
        init.visitInsn(Opcodes.RETURN);
        init.visitMaxs(0, 0);
        init.visitEnd();

        MethodVisitor mark = cw.visitMethod(Opcodes.ACC_PUBLIC | Opcodes.ACC_SYNCHRONIZED, "mark", "(I)V", null, null);
        mark.visitCode();
        Label done = new Label();
        mark.visitVarInsn(Opcodes.ILOAD, 1);
        mark.visitJumpInsn(Opcodes.IFEQ, done);
        mark.visitVarInsn(Opcodes.ALOAD, 0);
        mark.visitVarInsn(Opcodes.ILOAD, 1);
        mark.visitFieldInsn(Opcodes.PUTFIELD, NAME, "count", "I");
        mark.visitLabel(done);
        mark.visitFrame(Opcodes.F_CHOP, 2, null, 0, null);
        mark.visitInsn(Opcodes.RETURN);
        mark.visitMaxs(0, 0);
        mark.visitEnd();
        cw.visitEnd();
        return cw.toByteArray();
    }
}
