package dev.reprise.agent.instrument;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;

import org.junit.jupiter.api.Test;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/** When a class instrumented by the passes may be loaded as it was. */
class UnchangedTest {
    private static final String CLASS = "java/util/concurrent/locks/ReentrantLock$Sync";

    @Test
    void codeTheWriterReencodedWithRoomReservedIsUnchanged() throws IOException {
        byte[] original = jdkClass();
        assertTrue(Unchanged.code(original, rewritten(original, Edit.RESERVE_ROOM)));
        assertTrue(Unchanged.code(original, original));
    }

    @Test
    void aCallIntoRepriseIsAChange() throws IOException {
        byte[] original = jdkClass();
        assertFalse(Unchanged.code(original, rewritten(original, Edit.CALL)));
    }

    @Test
    void anInstructionThatAddsNothingToThePoolIsStillAChange() throws IOException {
        byte[] original = jdkClass();
        assertFalse(Unchanged.code(original, rewritten(original, Edit.NOP)));
    }

    private enum Edit { RESERVE_ROOM, CALL, NOP }

    private static byte[] jdkClass() throws IOException {
        try (InputStream in = ClassLoader.getSystemResourceAsStream(CLASS + ".class")) {
            return in.readAllBytes();
        }
    }

    /** The class through a writer that shares its pool, as the passes write it, every method visited by a pass. */
    private static byte[] rewritten(byte[] original, Edit edit) {
        ClassReader reader = new ClassReader(original);
        ClassWriter writer = new ClassWriter(reader, 0);
        reader.accept(new ClassVisitor(Opcodes.ASM9, writer) {
            @Override
            public MethodVisitor visitMethod(int access, String name, String desc, String signature, String[] exceptions) {
                MethodVisitor mv = super.visitMethod(access, name, desc, signature, exceptions);
                boolean edited = name.equals("tryRelease");
                return new MethodVisitor(Opcodes.ASM9, mv) {
                    @Override
                    public void visitCode() {
                        super.visitCode();
                        if (edited && edit == Edit.CALL) {
                            super.visitMethodInsn(Opcodes.INVOKESTATIC, "dev/reprise/agent/runtime/events/Rt", "suppress", "()V", false);
                        } else if (edited && edit == Edit.NOP) {
                            super.visitInsn(Opcodes.NOP);
                        }
                    }

                    @Override
                    public void visitMaxs(int maxStack, int maxLocals) {
                        super.visitMaxs(maxStack + 6, maxLocals + 1);
                    }
                };
            }
        }, 0);
        return writer.toByteArray();
    }
}
