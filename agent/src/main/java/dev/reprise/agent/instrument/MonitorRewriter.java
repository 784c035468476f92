package dev.reprise.agent.instrument;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;

import dev.reprise.agent.ops.MonitorOps;
import dev.reprise.agent.runtime.Sites;

/**
 * Makes every monitor acquisition of a class an ordered event: each {@code monitorenter} becomes
 * {@code MonitorOps.enter(m, site); monitorenter m; MonitorOps.entered(m)}. A {@code synchronized}
 * method, whose monitor the JVM takes before any bytecode runs, becomes a plain method whose body
 * is a synchronized block; this changes its modifiers, so it is done only when a class is first
 * loaded (the JVM forbids it on retransformation).
 *
 * <p>A static one holds its class in a local past its own from entry to every exit, as javac
 * compiles {@code synchronized (C.class)}: the JIT compilers match a {@code monitorexit} to its
 * {@code monitorenter} by the value locked, and two {@code ldc}s of the class are two values to
 * them, so a method that loads the class again at its exits is never compiled. The local must
 * be in every stack map frame after the entry: each frame of such a method is passed on in full,
 * with the class added.
 *
 * <p>The {@code entered} call runs with the monitor held, so it must lie inside the range whose
 * handler releases the monitor: a call that could leave the method holding it makes the JIT
 * compilers judge the method's monitors unbalanced, and they never compile it (it stays
 * interpreted). A compiler's range begins at the label right after {@code monitorenter}, so the
 * call is emitted after the labels and line numbers that follow it, unless a stack map frame
 * follows (a jump target, whose frame has no room for the claim the call consumes).
 */
final class MonitorRewriter extends ClassVisitor {
    private static final String OPS = Type.getInternalName(MonitorOps.class);

    private final boolean convertSynchronizedMethods;
    /** Where a converted static method's class goes: read for such methods ({@link #holdsClassInLocal}). */
    private final FreeLocals locals;
    private String className;
    private boolean frames;

    MonitorRewriter(ClassVisitor next, boolean convertSynchronizedMethods, FreeLocals locals) {
        super(Opcodes.ASM9, next);
        this.convertSynchronizedMethods = convertSynchronizedMethods;
        this.locals = locals;
    }

    /** Whether a method converted at first load holds its class in a local: a static synchronized one with code. */
    static boolean holdsClassInLocal(int access) {
        return (access & Opcodes.ACC_STATIC) != 0 && converts(access);
    }

    private static boolean converts(int access) {
        return (access & Opcodes.ACC_SYNCHRONIZED) != 0 && (access & (Opcodes.ACC_NATIVE | Opcodes.ACC_ABSTRACT)) == 0;
    }

    @Override
    public void visit(int version, int access, String name, String signature, String superName, String[] interfaces) {
        this.className = name;
        this.frames = (version & 0xFFFF) >= Opcodes.V1_6;
        super.visit(version, access, name, signature, superName, interfaces);
    }

    @Override
    public MethodVisitor visitMethod(int access, String name, String desc, String signature, String[] exceptions) {
        boolean convert = convertSynchronizedMethods && converts(access);
        // Claimed before the passes nearer the writer visit the method, so that they see the claim.
        SyncMethod sync = !convert ? null
                : holdsClassInLocal(access) ? SyncMethod.ofStatic(locals.claim(name + desc, 1), Frames.entryLocals(className, true, desc))
                : SyncMethod.INSTANCE;
        int newAccess = convert ? access & ~Opcodes.ACC_SYNCHRONIZED : access;
        return new Rewriter(super.visitMethod(newAccess, name, desc, signature, exceptions), name, sync);
    }

    /**
     * How a converted method's monitor is loaded: {@code this}, or, for a static one, its class from
     * {@code classLocal}; then {@code locals}, the method's own locals at the last stack map frame.
     */
    private record SyncMethod(int classLocal, List<Object> locals) {
        static final SyncMethod INSTANCE = new SyncMethod(-1, List.of());

        static SyncMethod ofStatic(int classLocal, Object[] entryLocals) {
            return new SyncMethod(classLocal, new ArrayList<>(Arrays.asList(entryLocals)));
        }

        boolean isStatic() {
            return classLocal >= 0;
        }
    }

    private final class Rewriter extends InstructionHookVisitor {
        private final String method;
        private final SyncMethod sync;
        private final Label bodyStart = new Label();
        private final Label bodyEnd = new Label();
        private final Label handler = new Label();
        private int line;
        /** A {@code monitorenter} was rewritten and its {@code entered} call is still to come. */
        private boolean enteredPending;
        /** Meanwhile, the labels (one element) and line numbers (line, label) passed on after the call. */
        private final List<Object[]> held = new ArrayList<>();

        Rewriter(MethodVisitor mv, String method, SyncMethod sync) {
            super(mv);
            this.method = method;
            this.sync = sync;
        }

        /**
         * A converted method takes its monitor before its first label (which a loop may jump
         * back to); its handler's entry follows the method's own, which the reader has reported.
         */
        @Override
        void beforeCode() {
            if (sync != null) {
                super.visitTryCatchBlock(bodyStart, bodyEnd, handler, null);
                if (sync.isStatic()) {
                    super.visitLdcInsn(Type.getObjectType(className));
                    super.visitInsn(Opcodes.DUP);
                    super.visitVarInsn(Opcodes.ASTORE, sync.classLocal());
                } else {
                    loadMonitor();
                }
                acquire();
                super.visitLabel(bodyStart);
                entered();
            }
        }

        @Override
        void beforeInstruction() {
            if (enteredPending) {
                enteredPending = false;
                passHeld();
                entered();
            }
        }

        @Override
        public void visitLabel(Label label) {
            if (enteredPending) {
                held.add(new Object[] {label});
            } else {
                super.visitLabel(label);
            }
        }

        @Override
        public void visitLineNumber(int line, Label start) {
            this.line = line;
            if (enteredPending) {
                held.add(new Object[] {line, start});
            } else {
                super.visitLineNumber(line, start);
            }
        }

        /**
         * A frame right after {@code monitorenter} marks a jump target: the call goes before it. A
         * static converted method's frames go on in full with its class.
         */
        @Override
        public void visitFrame(int type, int numLocal, Object[] local, int numStack, Object[] stack) {
            if (enteredPending) {
                enteredPending = false;
                entered();
                passHeld();
            }
            if (sync == null || !sync.isStatic()) {
                super.visitFrame(type, numLocal, local, numStack, stack);
                return;
            }
            List<Object> own = sync.locals();
            switch (type) {
                case Opcodes.F_NEW, Opcodes.F_FULL -> {
                    own.clear();
                    own.addAll(Arrays.asList(local).subList(0, numLocal));
                }
                case Opcodes.F_APPEND -> own.addAll(Arrays.asList(local).subList(0, numLocal));
                case Opcodes.F_CHOP -> own.subList(own.size() - numLocal, own.size()).clear();
                default -> { } // F_SAME, F_SAME1: the locals stay
            }
            Object[] full = withClass(own);
            super.visitFrame(type == Opcodes.F_NEW ? Opcodes.F_NEW : Opcodes.F_FULL, full.length, full, numStack, stack);
        }

        /** The frame's locals, unset up to the class's local, then the class. */
        private Object[] withClass(List<Object> own) {
            List<Object> full = new ArrayList<>(own);
            int slots = 0;
            for (Object t : own) {
                slots += t == Opcodes.LONG || t == Opcodes.DOUBLE ? 2 : 1;
            }
            for (; slots < sync.classLocal(); slots++) {
                full.add(Opcodes.TOP);
            }
            full.add("java/lang/Class");
            return full.toArray();
        }

        private void passHeld() {
            for (Object[] h : held) {
                if (h.length == 1) {
                    super.visitLabel((Label) h[0]);
                } else {
                    super.visitLineNumber((Integer) h[0], (Label) h[1]);
                }
            }
            held.clear();
        }

        @Override
        public void visitInsn(int opcode) {
            if (opcode == Opcodes.MONITORENTER) {
                acquire();
                enteredPending = true;
                return;
            }
            if (sync != null && opcode >= Opcodes.IRETURN && opcode <= Opcodes.RETURN) {
                loadMonitor();
                super.visitInsn(Opcodes.MONITOREXIT);
            }
            super.visitInsn(opcode);
        }

        /** Stack: monitor -> claim, the monitor acquired; {@link #entered} then records it. */
        private void acquire() {
            super.visitInsn(Opcodes.DUP);                                     // m m
            super.visitIntInsn(Opcodes.SIPUSH, Sites.register(className, method, line)); // m m site
            super.visitMethodInsn(Opcodes.INVOKESTATIC, OPS, MonitorOps.ENTER,
                    "(Ljava/lang/Object;I)Ljava/lang/Object;", false);       // m claim
            super.visitInsn(Opcodes.SWAP);                                    // claim m
            super.visitInsn(Opcodes.MONITORENTER);                            // claim
        }

        /** Stack: claim -> (empty). */
        private void entered() {
            super.visitMethodInsn(Opcodes.INVOKESTATIC, OPS, MonitorOps.ENTERED, "(Ljava/lang/Object;)V", false);
        }

        private void loadMonitor() {
            if (sync.isStatic()) {
                super.visitVarInsn(Opcodes.ALOAD, sync.classLocal());
            } else {
                super.visitVarInsn(Opcodes.ALOAD, 0);
            }
        }

        /** A converted method releases its monitor on the way out by an exception too. */
        @Override
        public void visitMaxs(int maxStack, int maxLocals) {
            beforeInstruction();
            if (sync != null) {
                super.visitLabel(bodyEnd);
                super.visitLabel(handler);
                if (frames) {
                    // The handler needs only the monitor: a static method's class, or this.
                    Object[] locals = sync.isStatic() ? withClass(List.of()) : new Object[] {className};
                    super.visitFrame(Opcodes.F_FULL, locals.length, locals, 1, new Object[] {"java/lang/Throwable"});
                }
                loadMonitor();
                super.visitInsn(Opcodes.MONITOREXIT);
                super.visitInsn(Opcodes.ATHROW);
            }
            // acquire() holds the monitor, its copy, and the claim or the site above what was there;
            // a converted method loads its monitor first, and again above a return value.
            super.visitMaxs(maxStack + (sync != null ? 3 : 2), sync != null && sync.isStatic() ? Math.max(maxLocals, sync.classLocal() + 1) : maxLocals);
        }
    }
}
