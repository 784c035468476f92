package dev.reprise.agent.instrument;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import org.junit.jupiter.api.Test;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * A Java 5 class file, which has no stack map frames, whose synchronized block opens with a loop's
 * head, as javac compiles a do-while there (plexus-utils 3.0's {@code FileUtils.createTempFile},
 * run by Maven's jar plugin): the loop jumps back to the instruction right after
 * {@code monitorenter}. Instrumented, it must verify, loop, and release its monitor.
 */
class FramelessMonitorLoopTest {
    private static final String NAME = "programs/OldLoop";

    @Test
    void aLoopThatJumpsBackToTheStartOfASynchronizedBlockVerifies() throws Exception {
        Class<?> loaded = InstrumentedClasses.define(NAME, classFile(), "its monitor is made an ordered event");
        Object lock = new Object();
        assertEquals(0, loaded.getMethod("countDown", Object.class, int.class).invoke(null, lock, 3));
        assertFalse(Thread.holdsLock(lock), "the block released its monitor");
    }

    /** {@code static int countDown(Object lock, int n) { synchronized (lock) { do { n--; } while (n > 0); } return n; }} */
    private static byte[] classFile() {
        ClassWriter cw = new ClassWriter(ClassWriter.COMPUTE_MAXS);
        cw.visit(Opcodes.V1_5, Opcodes.ACC_PUBLIC | Opcodes.ACC_SUPER, NAME, null, "java/lang/Object", null);
        MethodVisitor mv = cw.visitMethod(Opcodes.ACC_PUBLIC | Opcodes.ACC_STATIC, "countDown", "(Ljava/lang/Object;I)I", null, null);
        Label loop = new Label();
        Label end = new Label();
        Label handler = new Label();
        Label after = new Label();
        mv.visitCode();
        mv.visitTryCatchBlock(loop, end, handler, null);
        mv.visitVarInsn(Opcodes.ALOAD, 0);
        mv.visitInsn(Opcodes.DUP);
        mv.visitVarInsn(Opcodes.ASTORE, 2);
        mv.visitInsn(Opcodes.MONITORENTER);
        mv.visitLabel(loop);
        mv.visitIincInsn(1, -1);
        mv.visitVarInsn(Opcodes.ILOAD, 1);
        mv.visitJumpInsn(Opcodes.IFGT, loop);
        mv.visitVarInsn(Opcodes.ALOAD, 2);
        mv.visitInsn(Opcodes.MONITOREXIT);
        mv.visitLabel(end);
        mv.visitJumpInsn(Opcodes.GOTO, after);
        mv.visitLabel(handler);
        mv.visitVarInsn(Opcodes.ASTORE, 3);
        mv.visitVarInsn(Opcodes.ALOAD, 2);
        mv.visitInsn(Opcodes.MONITOREXIT);
        mv.visitVarInsn(Opcodes.ALOAD, 3);
        mv.visitInsn(Opcodes.ATHROW);
        mv.visitLabel(after);
        mv.visitVarInsn(Opcodes.ILOAD, 1);
        mv.visitInsn(Opcodes.IRETURN);
        mv.visitMaxs(0, 0);
        mv.visitEnd();
        cw.visitEnd();
        return cw.toByteArray();
    }
}
