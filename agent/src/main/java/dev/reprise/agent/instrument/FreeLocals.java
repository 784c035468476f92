package dev.reprise.agent.instrument;

import java.util.HashMap;
import java.util.Map;

import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * The locals past a method's own ({@code max_locals} of its class file), handed out to the passes
 * that need some. A pass claims its locals when it visits the method; the chain visits a method in
 * every pass from the reader's end to the writer's, so a pass nearer the writer sees the claims of
 * those before it. Methods are keyed by name and descriptor.
 */
final class FreeLocals {
    /** For a class whose passes need no locals. */
    static final FreeLocals NONE = new FreeLocals(Map.of());

    /** Each method's first local not yet claimed. */
    private final Map<String, Integer> next;

    private FreeLocals(Map<String, Integer> next) {
        this.next = next;
    }

    /**
     * The locals of every method, or, unless {@code all}, only of those
     * {@link MonitorRewriter#holdsClassInLocal} names: the reader parses only their code. A flag,
     * not a predicate: a lambda would spin a class at a run's first cache miss.
     */
    static FreeLocals read(ClassReader reader, boolean all) {
        Map<String, Integer> next = new HashMap<>();
        reader.accept(new ClassVisitor(Opcodes.ASM9) {
            @Override
            public MethodVisitor visitMethod(int access, String name, String desc, String signature, String[] exceptions) {
                if (!all && !MonitorRewriter.holdsClassInLocal(access)) {
                    return null;
                }
                return new MethodVisitor(Opcodes.ASM9) {
                    @Override
                    public void visitMaxs(int maxStack, int maxLocals) {
                        next.put(name + desc, maxLocals);
                    }
                };
            }
        }, ClassReader.SKIP_DEBUG | ClassReader.SKIP_FRAMES);
        return new FreeLocals(next);
    }

    /** The method's first unclaimed local, or -1 if its locals were not read. */
    int first(String method) {
        return next.getOrDefault(method, -1);
    }

    /** Claims {@code count} locals of a method whose locals were read; returns the first. */
    int claim(String method, int count) {
        Integer first = next.get(method);
        if (first == null) {
            throw new IllegalStateException("locals of " + method + " not read");
        }
        next.put(method, first + count);
        return first;
    }
}
