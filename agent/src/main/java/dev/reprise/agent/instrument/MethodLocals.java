package dev.reprise.agent.instrument;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * A class's methods' locals, as the passes need them, read once before the passes run. The
 * locals past a method's own ({@code max_locals} of its class file) are handed out to the passes
 * that need some: a pass claims its locals when it visits the method; the chain visits a method in
 * every pass from the reader's end to the writer's, so a pass nearer the writer sees the claims of
 * those before it. And which methods store into local 0 ({@link #overwritesFirst}). Methods are
 * keyed by name and descriptor.
 */
final class MethodLocals {
    /** For a class whose passes need no locals. */
    static final MethodLocals NONE = new MethodLocals(Map.of(), Set.of());

    /** Each method's first local not yet claimed. */
    private final Map<String, Integer> next;
    /** The methods read that store into local 0. */
    private final Set<String> overwriteFirst;

    private MethodLocals(Map<String, Integer> next, Set<String> overwriteFirst) {
        this.next = next;
        this.overwriteFirst = overwriteFirst;
    }

    /**
     * The locals of every method, or, unless {@code all}, only of those
     * {@link MonitorRewriter#converts}: the reader parses only their code. A flag, not a
     * predicate: a lambda would spin a class at a run's first cache miss.
     */
    static MethodLocals read(ClassReader reader, boolean all) {
        Map<String, Integer> next = new HashMap<>();
        Set<String> overwriteFirst = new HashSet<>();
        reader.accept(new ClassVisitor(Opcodes.ASM9) {
            @Override
            public MethodVisitor visitMethod(int access, String name, String desc, String signature, String[] exceptions) {
                if (!all && !MonitorRewriter.converts(access)) {
                    return null;
                }
                return new MethodVisitor(Opcodes.ASM9) {
                    @Override
                    public void visitVarInsn(int opcode, int var) {
                        if (var == 0 && opcode >= Opcodes.ISTORE && opcode <= Opcodes.ASTORE) {
                            overwriteFirst.add(name + desc);
                        }
                    }

                    @Override
                    public void visitIincInsn(int var, int increment) {
                        if (var == 0) {
                            overwriteFirst.add(name + desc);
                        }
                    }

                    @Override
                    public void visitMaxs(int maxStack, int maxLocals) {
                        next.put(name + desc, maxLocals);
                    }
                };
            }
        }, ClassReader.SKIP_DEBUG | ClassReader.SKIP_FRAMES);
        return new MethodLocals(next, overwriteFirst);
    }

    /** Whether the method, if read, stores into local 0 ({@code this} in an instance method). */
    boolean overwritesFirst(String method) {
        return overwriteFirst.contains(method);
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
