package dev.reprise.agent.instrument;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;

import dev.reprise.agent.ops.threads.MonitorOps;
import dev.reprise.agent.runtime.events.Sites;

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
 * them, so a method that loads the class again at its exits is never compiled. So does an
 * instance method that stores into local 0 (javac never does; an optimizer reusing the slot
 * after {@code this}'s last use may), or has a stack map frame leaving {@code this} out of it
 * (other compilers and instrumenters may end its range after its last use): {@code aload_0} at
 * its exits would not be {@code this}, or would not verify. Other instance methods reload
 * {@code this} from local 0. The local must be in every stack map frame after the entry: each
 * frame of such a method is passed on in full, with the monitor added.
 *
 * <p>The {@code entered} call runs with the monitor held, so it must lie inside the range whose
 * handler releases the monitor: a call that could leave the method holding it makes the JIT
 * compilers judge the method's monitors unbalanced, and they never compile it (it stays
 * interpreted). A compiler's range begins at the label right after {@code monitorenter}, so the
 * call is emitted after the labels and line numbers that follow it, unless a stack map frame
 * follows (a jump target, whose frame has no room for the claim the call consumes). A class file
 * older than Java 7's need not mark its jump targets with frames, and Java 5's have none: there
 * the call goes before the labels, where a jump back to the first does not meet it, and the
 * method, whose monitor range then begins after the call, stays interpreted.
 */
final class MonitorRewriter extends ClassVisitor {
    private static final String OPS = Type.getInternalName(MonitorOps.class);

    private final boolean convertSynchronizedMethods;
    /** Where a converted method's monitor goes, if not reloaded from local 0: read for every method it {@link #converts}. */
    private final MethodLocals locals;
    private String className;
    private boolean frames;
    /** Whether every jump target has a stack map frame: from Java 7's class files on, where the verifier requires them. */
    private boolean framesMarkTargets;

    MonitorRewriter(ClassVisitor next, boolean convertSynchronizedMethods, MethodLocals locals) {
        super(Opcodes.ASM9, next);
        this.convertSynchronizedMethods = convertSynchronizedMethods;
        this.locals = locals;
    }

    /** Whether a method is converted at first load: a synchronized one with code. */
    static boolean converts(int access) {
        return (access & Opcodes.ACC_SYNCHRONIZED) != 0 && (access & (Opcodes.ACC_NATIVE | Opcodes.ACC_ABSTRACT)) == 0;
    }

    @Override
    public void visit(int version, int access, String name, String signature, String superName, String[] interfaces) {
        this.className = name;
        this.frames = (version & 0xFFFF) >= Opcodes.V1_6;
        this.framesMarkTargets = (version & 0xFFFF) >= Opcodes.V1_7;
        // A converted static synchronized method locks its class, loaded by ldc.
        super.visit(convertSynchronizedMethods ? ClassVersions.allowingClassConstants(version) : version,
                access, name, signature, superName, interfaces);
    }

    @Override
    public MethodVisitor visitMethod(int access, String name, String desc, String signature, String[] exceptions) {
        boolean convert = convertSynchronizedMethods && converts(access);
        boolean isStatic = (access & Opcodes.ACC_STATIC) != 0;
        // Claimed before the passes nearer the writer visit the method, so that they see the claim.
        SyncMethod sync = !convert ? null
                : isStatic || locals.mayLoseThis(name + desc)
                        ? SyncMethod.inLocal(locals.claim(name + desc, 1), isStatic, Frames.entryLocals(className, isStatic, desc))
                : SyncMethod.THIS;
        int newAccess = convert ? access & ~Opcodes.ACC_SYNCHRONIZED : access;
        return new Rewriter(super.visitMethod(newAccess, name, desc, signature, exceptions), name, sync);
    }

    /**
     * Where a converted method's monitor is: {@code this} in local 0, or, held from entry, the class
     * of a static method or {@code this} in {@code monitorLocal}; then {@code locals}, the
     * method's own locals at the last stack map frame, for the frames that must carry it.
     */
    private record SyncMethod(int monitorLocal, boolean isStatic, List<Object> locals) {
        static final SyncMethod THIS = new SyncMethod(-1, false, List.of());

        static SyncMethod inLocal(int monitorLocal, boolean isStatic, Object[] entryLocals) {
            return new SyncMethod(monitorLocal, isStatic, new ArrayList<>(Arrays.asList(entryLocals)));
        }

        boolean inLocal() {
            return monitorLocal >= 0;
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
        /** Whether a {@code monitorenter} was rewritten: only then does the method need more stack. */
        private boolean acquired;
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
                } else {
                    super.visitVarInsn(Opcodes.ALOAD, 0);
                }
                if (sync.inLocal()) {
                    super.visitInsn(Opcodes.DUP);
                    super.visitVarInsn(Opcodes.ASTORE, sync.monitorLocal());
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
            if (enteredPending && !framesMarkTargets) {
                // No frame says which label a jump targets (a loop's head right after monitorenter,
                // as javac compiles do-while in a synchronized block): the call goes before them all.
                enteredPending = false;
                entered();
                passHeld();
            }
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
         * method holding its monitor in a local passes its frames on in full with the monitor.
         */
        @Override
        public void visitFrame(int type, int numLocal, Object[] local, int numStack, Object[] stack) {
            if (enteredPending) {
                enteredPending = false;
                entered();
                passHeld();
            }
            if (sync == null || !sync.inLocal()) {
                super.visitFrame(type, numLocal, local, numStack, stack);
                return;
            }
            Frames.advance(sync.locals(), type, numLocal, local);
            Object[] full = withMonitor(sync.locals());
            super.visitFrame(type == Opcodes.F_NEW ? Opcodes.F_NEW : Opcodes.F_FULL, full.length, full, numStack, stack);
        }

        /** The frame's locals, unset up to the monitor's local, then the monitor. */
        private Object[] withMonitor(List<Object> own) {
            List<Object> full = new ArrayList<>(own);
            int slots = 0;
            for (Object t : own) {
                slots += t == Opcodes.LONG || t == Opcodes.DOUBLE ? 2 : 1;
            }
            for (; slots < sync.monitorLocal(); slots++) {
                full.add(Opcodes.TOP);
            }
            full.add(sync.isStatic() ? "java/lang/Class" : className);
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
            acquired = true;
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
            super.visitVarInsn(Opcodes.ALOAD, sync.inLocal() ? sync.monitorLocal() : 0);
        }

        /** A converted method releases its monitor on the way out by an exception too. */
        @Override
        public void visitMaxs(int maxStack, int maxLocals) {
            beforeInstruction();
            if (sync != null) {
                super.visitLabel(bodyEnd);
                super.visitLabel(handler);
                if (frames) {
                    // The handler needs only the monitor: in its local, or this in local 0.
                    Object[] locals = sync.inLocal() ? withMonitor(List.of()) : new Object[] {className};
                    super.visitFrame(Opcodes.F_FULL, locals.length, locals, 1, new Object[] {"java/lang/Throwable"});
                }
                loadMonitor();
                super.visitInsn(Opcodes.MONITOREXIT);
                super.visitInsn(Opcodes.ATHROW);
            }
            // acquire() holds the monitor, its copy, and the claim or the site above what was there;
            // a converted method loads its monitor first, and again above a return value.
            int extra = sync != null ? 3 : acquired ? 2 : 0;
            super.visitMaxs(maxStack + extra, sync != null && sync.inLocal() ? Math.max(maxLocals, sync.monitorLocal() + 1) : maxLocals);
        }
    }
}
