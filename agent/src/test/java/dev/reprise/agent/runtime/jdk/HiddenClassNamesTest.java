package dev.reprise.agent.runtime.jdk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * A lambda's class is the same class in every run, whatever count the JVM gave it: on JDK 17 a
 * replay spins other lambdas before the program's than its recording did (Reprise's own work).
 */
class HiddenClassNamesTest {
    /** A capturing lambda's class as JDK 17 spins it: its own name in its fields' references. */
    private static byte[] lambda(String name, String calls) {
        ClassWriter w = new ClassWriter(0);
        w.visit(Opcodes.V17, Opcodes.ACC_FINAL | Opcodes.ACC_SYNTHETIC, name, null, "java/lang/Object",
                new String[] {"java/lang/Runnable"});
        w.visitField(Opcodes.ACC_PRIVATE | Opcodes.ACC_FINAL, "arg$1", "Ljava/lang/String;", null, null).visitEnd();
        MethodVisitor init = w.visitMethod(Opcodes.ACC_PRIVATE, "<init>", "(Ljava/lang/String;)V", null, null);
        init.visitVarInsn(Opcodes.ALOAD, 0);
        init.visitMethodInsn(Opcodes.INVOKESPECIAL, "java/lang/Object", "<init>", "()V", false);
        init.visitVarInsn(Opcodes.ALOAD, 0);
        init.visitVarInsn(Opcodes.ALOAD, 1);
        init.visitFieldInsn(Opcodes.PUTFIELD, name, "arg$1", "Ljava/lang/String;");
        init.visitInsn(Opcodes.RETURN);
        init.visitMaxs(2, 2);
        init.visitEnd();
        MethodVisitor run = w.visitMethod(Opcodes.ACC_PUBLIC, "run", "()V", null, null);
        run.visitVarInsn(Opcodes.ALOAD, 0);
        run.visitFieldInsn(Opcodes.GETFIELD, name, "arg$1", "Ljava/lang/String;");
        run.visitMethodInsn(Opcodes.INVOKESTATIC, "p/Host", calls, "(Ljava/lang/String;)V", false);
        run.visitInsn(Opcodes.RETURN);
        run.visitMaxs(1, 1);
        run.visitEnd();
        w.visitEnd();
        return w.toByteArray();
    }

    private static long digest(int count, String calls) {
        String name = "p/Host$$Lambda$" + count;
        return HiddenClassNames.contentDigest(lambda(name, calls), name);
    }

    @Test
    void aLambdasCountDoesNotChangeItsDigestEvenWhereItsDigitsDo() {
        long spun = digest(99, "lambda$main$0");
        assertEquals(spun, digest(98, "lambda$main$0"));
        assertEquals(spun, digest(101, "lambda$main$0"));
        assertEquals(spun, digest(12345, "lambda$main$0"));
    }

    @Test
    void lambdasOfOneHostThatCallOtherMethodsDiffer() {
        assertNotEquals(digest(99, "lambda$main$0"), digest(99, "lambda$main$1"));
        assertNotEquals(digest(99, "lambda$main$0"), digest(101, "lambda$main$1"));
    }

    /** A lambda that captures nothing has one object every thread shares; one that captures has many. */
    @Test
    void aCapturingLambdasClassDeclaresInstanceFields() {
        assertTrue(HiddenClassNames.declaresInstanceFields(lambda("p/Host$$Lambda$7", "lambda$main$0")));
        ClassWriter w = new ClassWriter(0);
        w.visit(Opcodes.V17, Opcodes.ACC_FINAL, "p/Host$$Lambda$8", null, "java/lang/Object", null);
        w.visitField(Opcodes.ACC_STATIC, "LONG", "J", null, 7L).visitEnd(); // a long constant: two pool entries
        w.visitEnd();
        assertFalse(HiddenClassNames.declaresInstanceFields(w.toByteArray()));
        assertTrue(HiddenClassNames.declaresInstanceFields(new byte[] {1, 2, 3}), "unreadable: taken as capturing");
    }

    @Test
    void theStemDropsTheAddressAndTheCount() {
        assertEquals("p.Host$$Lambda", HiddenClassNames.stem("p.Host$$Lambda$101/0x0000000800c0b000"));
        assertEquals("p.Host$$Lambda", HiddenClassNames.stem("p.Host$$Lambda/0x0000000800c0b000"));
        assertEquals("p.Spun", HiddenClassNames.stem("p.Spun/0x0000000800c0b000"));
    }
}
