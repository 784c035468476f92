package dev.reprise.agent.instrument;

import java.util.HashSet;
import java.util.Set;

import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * Finds the JDK's own users of {@code java.util.concurrent} outside it: the JDK keeps caches and
 * registries in concurrent maps (system properties, time-zone rules, file-system providers,
 * services) that Reprise's own work fills differently when recording and when replaying, so the
 * program would meet them in different states. Methods of other JDK classes that call into
 * {@code java.util.concurrent} therefore run unlogged ({@link UnloggedRewriter}); the program's
 * own use, and the concurrency classes' use of each other, stay ordered.
 */
public final class ConcurrencyCallers {
    private static final String CONCURRENT = "java/util/concurrent/";

    private ConcurrencyCallers() {
    }

    /** Whether the class's constant pool names a class of {@code java.util.concurrent}: a cheap first test. */
    static boolean namesConcurrency(ClassReader reader) {
        char[] buf = new char[reader.getMaxStringLength()];
        for (int i = 1; i < reader.getItemCount(); i++) {
            int offset = reader.getItem(i);
            if (offset > 0 && reader.readByte(offset - 1) == 7 && reader.readUTF8(offset, buf).startsWith(CONCURRENT)) {
                return true;
            }
        }
        return false;
    }

    /** Whether an already loaded JDK class calls into {@code java.util.concurrent}: it must be retransformed. */
    public static boolean calledBy(Class<?> c) {
        String name = c.getName().replace('.', '/');
        ClassLoader loader = c.getClassLoader();
        if (c.isArray() || c.isHidden() || name.startsWith(CONCURRENT) || name.startsWith("java/util/stream/")
                || name.startsWith("dev/reprise/")
                || loader != null && loader != ClassLoader.getPlatformClassLoader()) {
            return false;
        }
        try (java.io.InputStream in = ClassLoader.getSystemResourceAsStream(name + ".class")) {
            return in != null && namesConcurrency(new ClassReader(in));
        } catch (java.io.IOException | RuntimeException e) {
            return false;
        }
    }

    /** Name and descriptor of each method (constructors aside) that calls a method of {@code java.util.concurrent}. */
    static Set<String> methods(ClassReader reader) {
        Set<String> result = new HashSet<>();
        reader.accept(new ClassVisitor(Opcodes.ASM9) {
            @Override
            public MethodVisitor visitMethod(int access, String name, String desc, String signature, String[] exceptions) {
                if (name.equals("<init>")) {
                    return null;
                }
                return new MethodVisitor(Opcodes.ASM9) {
                    @Override
                    public void visitMethodInsn(int opcode, String owner, String method, String mdesc, boolean itf) {
                        if (owner.startsWith(CONCURRENT)) {
                            result.add(name + desc);
                        }
                    }
                };
            }
        }, ClassReader.SKIP_DEBUG | ClassReader.SKIP_FRAMES);
        return result;
    }
}
