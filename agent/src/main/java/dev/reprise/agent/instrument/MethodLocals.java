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
 * those before it. And which instance methods may not have {@code this} in local 0 at every
 * instruction ({@link #mayLoseThis}). Methods are keyed by name and descriptor.
 */
final class MethodLocals {
    /** For a class whose passes need no locals. */
    static final MethodLocals NONE = new MethodLocals(Map.of(), Set.of());

    /** Each method's first local not yet claimed. */
    private final Map<String, Integer> next;
    /** The methods read that store into local 0 or have a stack map frame without {@code this} there. */
    private final Set<String> loseThis;

    private MethodLocals(Map<String, Integer> next, Set<String> loseThis) {
        this.next = next;
        this.loseThis = loseThis;
    }

    /**
     * The locals of every method, or, unless {@code all}, only of those
     * {@link MonitorRewriter#converts}: the reader parses only their code. A flag, not a
     * predicate: a lambda would spin a class at a run's first cache miss.
     */
    static MethodLocals read(ClassReader reader, boolean all) {
        Map<String, Integer> next = new HashMap<>();
        Set<String> loseThis = new HashSet<>();
        reader.accept(new ClassVisitor(Opcodes.ASM9) {
            private String className;

            @Override
            public void visit(int version, int access, String name, String signature, String superName, String[] interfaces) {
                className = name;
            }

            @Override
            public MethodVisitor visitMethod(int access, String name, String desc, String signature, String[] exceptions) {
                if (!all && !MonitorRewriter.converts(access)) {
                    return null;
                }
                boolean isStatic = (access & Opcodes.ACC_STATIC) != 0;
                return new MethodVisitor(Opcodes.ASM9) {
                    /** How many locals (a long or double counts once) the last frame declared. */
                    private int frameLocals = Frames.entryLocals(className, isStatic, desc).length;

                    @Override
                    public void visitVarInsn(int opcode, int var) {
                        if (var == 0 && opcode >= Opcodes.ISTORE && opcode <= Opcodes.ASTORE) {
                            loseThis.add(name + desc);
                        }
                    }

                    @Override
                    public void visitIincInsn(int var, int increment) {
                        if (var == 0) {
                            loseThis.add(name + desc);
                        }
                    }

                    /**
                     * A frame may end local 0's range after {@code this}'s last use (javac never
                     * does; other compilers and bytecode instrumenters may): the verifier then holds the
                     * slot unset from there, though nothing was stored into it.
                     */
                    @Override
                    public void visitFrame(int type, int numLocal, Object[] local, int numStack, Object[] stack) {
                        switch (type) {
                            case Opcodes.F_NEW, Opcodes.F_FULL -> {
                                frameLocals = numLocal;
                                if (numLocal == 0 || !className.equals(local[0])) {
                                    loseThis.add(name + desc);
                                }
                            }
                            case Opcodes.F_APPEND -> frameLocals += numLocal;
                            case Opcodes.F_CHOP -> {
                                frameLocals -= numLocal;
                                if (frameLocals <= 0) {
                                    loseThis.add(name + desc);
                                }
                            }
                            default -> { } // F_SAME, F_SAME1: the locals stay
                        }
                    }

                    @Override
                    public void visitMaxs(int maxStack, int maxLocals) {
                        next.put(name + desc, maxLocals);
                    }
                };
            }
        }, ClassReader.SKIP_DEBUG);
        return new MethodLocals(next, loseThis);
    }

    /**
     * Whether an instance method, if read, may not have {@code this} in local 0 everywhere: it
     * stores into local 0, or a stack map frame leaves {@code this} out of it.
     */
    boolean mayLoseThis(String method) {
        return loseThis.contains(method);
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
