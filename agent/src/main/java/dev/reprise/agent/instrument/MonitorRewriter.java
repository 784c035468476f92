package dev.reprise.agent.instrument;

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
 */
final class MonitorRewriter extends ClassVisitor {
    private static final String OPS = Type.getInternalName(MonitorOps.class);

    private final boolean convertSynchronizedMethods;
    private String className;
    private boolean frames;

    MonitorRewriter(ClassVisitor next, boolean convertSynchronizedMethods) {
        super(Opcodes.ASM9, next);
        this.convertSynchronizedMethods = convertSynchronizedMethods;
    }

    @Override
    public void visit(int version, int access, String name, String signature, String superName, String[] interfaces) {
        this.className = name;
        this.frames = (version & 0xFFFF) >= Opcodes.V1_6;
        super.visit(version, access, name, signature, superName, interfaces);
    }

    @Override
    public MethodVisitor visitMethod(int access, String name, String desc, String signature, String[] exceptions) {
        boolean convert = convertSynchronizedMethods && (access & Opcodes.ACC_SYNCHRONIZED) != 0
                && (access & (Opcodes.ACC_NATIVE | Opcodes.ACC_ABSTRACT)) == 0;
        int newAccess = convert ? access & ~Opcodes.ACC_SYNCHRONIZED : access;
        MethodVisitor mv = super.visitMethod(newAccess, name, desc, signature, exceptions);
        return new Rewriter(mv, name, convert ? new SyncMethod(access, desc) : null);
    }

    /** What a converted synchronized method needs: how to load its monitor, its frame at entry. */
    private record SyncMethod(int access, String desc) {
        boolean isStatic() {
            return (access & Opcodes.ACC_STATIC) != 0;
        }
    }

    private final class Rewriter extends MethodVisitor {
        private final String method;
        private final SyncMethod sync;
        private final Label bodyStart = new Label();
        private final Label bodyEnd = new Label();
        private final Label handler = new Label();
        private int line;

        Rewriter(MethodVisitor mv, String method, SyncMethod sync) {
            super(Opcodes.ASM9, mv);
            this.method = method;
            this.sync = sync;
        }

        @Override
        public void visitCode() {
            super.visitCode();
            if (sync != null) {
                loadMonitor();
                enter();
                super.visitLabel(bodyStart);
            }
        }

        @Override
        public void visitLineNumber(int line, Label start) {
            this.line = line;
            super.visitLineNumber(line, start);
        }

        @Override
        public void visitInsn(int opcode) {
            if (opcode == Opcodes.MONITORENTER) {
                enter();
                return;
            }
            if (sync != null && opcode >= Opcodes.IRETURN && opcode <= Opcodes.RETURN) {
                loadMonitor();
                super.visitInsn(Opcodes.MONITOREXIT);
            }
            super.visitInsn(opcode);
        }

        /** Stack: monitor -> (empty), acquired as an ordered event. */
        private void enter() {
            super.visitInsn(Opcodes.DUP);                                     // m m
            super.visitLdcInsn(Sites.register(className, method, line));     // m m site
            super.visitMethodInsn(Opcodes.INVOKESTATIC, OPS, MonitorOps.ENTER,
                    "(Ljava/lang/Object;I)Ljava/lang/Object;", false);       // m claim
            super.visitInsn(Opcodes.SWAP);                                    // claim m
            super.visitInsn(Opcodes.MONITORENTER);                            // claim
            super.visitMethodInsn(Opcodes.INVOKESTATIC, OPS, MonitorOps.ENTERED, "(Ljava/lang/Object;)V", false);
        }

        private void loadMonitor() {
            if (sync.isStatic()) {
                super.visitLdcInsn(Type.getObjectType(className));
            } else {
                super.visitVarInsn(Opcodes.ALOAD, 0);
            }
        }

        /** A converted method releases its monitor on the way out by an exception too. */
        @Override
        public void visitMaxs(int maxStack, int maxLocals) {
            if (sync != null) {
                super.visitLabel(bodyEnd);
                super.visitTryCatchBlock(bodyStart, bodyEnd, handler, null);
                super.visitLabel(handler);
                if (frames) {
                    Object[] locals = Frames.entryLocals(className, sync.isStatic(), sync.desc());
                    super.visitFrame(Opcodes.F_FULL, locals.length, locals, 1, new Object[] {"java/lang/Throwable"});
                }
                loadMonitor();
                super.visitInsn(Opcodes.MONITOREXIT);
                super.visitInsn(Opcodes.ATHROW);
            }
            // enter() holds the monitor, its copy, and the claim or the site above what was there;
            // a converted method loads its monitor first, and again above a return value.
            super.visitMaxs(maxStack + (sync != null ? 3 : 2), maxLocals);
        }
    }
}
