package dev.reprise.agent.instrument;

import java.util.Arrays;

import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * Whether instrumenting left a class's code as it was: most classes a program loads have nothing
 * to rewrite but go through the passes (an interface, a class without a static initializer, an
 * application class without monitors or intercepted calls). Such a class is better left to the
 * JVM as it is: a JDK class then comes from the class-data archive instead of being parsed again,
 * and start-up need not redefine one loaded before the agent.
 *
 * <p>Every pass that changes code calls into Reprise's runtime, which adds entries to the
 * constant pool; so only a class whose pool kept its size is compared further. The two class
 * files are then written again the same way, every method re-encoded (the instrumented one may
 * have had some methods copied and others re-encoded) and its stack and locals sizes left out (a
 * pass that adds code raises them; the original code fits in the original sizes), and compared
 * byte for byte: equal output means equal code. A
 * difference this cannot see as equal only keeps the instrumented bytes.
 */
final class Unchanged {
    private Unchanged() {
    }

    static boolean code(byte[] original, byte[] instrumented) {
        ClassReader before = new ClassReader(original);
        ClassReader after = new ClassReader(instrumented);
        return before.getItemCount() == after.getItemCount() && Arrays.equals(reencoded(before), reencoded(after));
    }

    private static byte[] reencoded(ClassReader reader) {
        ClassWriter writer = new ClassWriter(reader, 0);
        reader.accept(new ClassVisitor(Opcodes.ASM9, writer) {
            @Override
            public MethodVisitor visitMethod(int access, String name, String desc, String signature, String[] exceptions) {
                // Not the writer's own visitor: the reader then re-encodes the method instead of copying it.
                return new MethodVisitor(Opcodes.ASM9, super.visitMethod(access, name, desc, signature, exceptions)) {
                    @Override
                    public void visitMaxs(int maxStack, int maxLocals) {
                        super.visitMaxs(0, 0);
                    }
                };
            }
        }, 0);
        return writer.toByteArray();
    }
}
