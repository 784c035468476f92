package dev.reprise.agent.instrument;

import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

import dev.reprise.agent.ops.JdkInternals;

/**
 * Brackets method bodies on every way out: the JDK methods {@code ops/JdkInternals} lists run
 * without intercepting what they do ({@code Rt.suppress()} ... {@code Rt.unsuppress()}); a
 * static initializer runs in a context of its own ({@code ClassInits.enter(name)}, or
 * {@code enterOrdered} for an application class, ... {@code exit(name)}). Only bodies change, so
 * the pass is valid on retransformation: the JVM runs the initializer of a class it loaded
 * before the agent, and initializes after, as retransformed.
 *
 * <p>An application class loader's own {@code loadClass(String)} runs unlogged too, as the JDK's
 * does under its prologue ({@code ops/classes/ClassLoadingOps}): the JVM calls that method to
 * resolve a class's references, and a loader that overrides it (Maven's class realms) would
 * otherwise make events at moments the JVM picks. The JVM picks them in an order of its own
 * while it verifies a class or lists its methods for reflection (the addresses of the methods'
 * name symbols), which differs between a recording and its replays. A class that declares the
 * method and extends a class other than {@code Object} is taken for a loader: the test needs no
 * other class file, and a class-loading helper of that shape is class loading too.
 */
final class UnloggedRewriter extends ClassVisitor {
    private static final String RT = "dev/reprise/agent/runtime/events/Rt";
    private static final String INITS = "dev/reprise/agent/runtime/contexts/ClassInits";
    private static final String LOAD_CLASS = "(Ljava/lang/String;)Ljava/lang/Class;";

    /** The {@code ClassInits} method that opens the static initializer's bracket. */
    private final String initializerEnter;
    /** Whether the class is the program's: its own {@code loadClass(String)} is bracketed too. */
    private final boolean application;
    private String className;
    /** Whether the class may be a class loader: it extends a class other than {@code Object}. */
    private boolean subclass;
    /** Whether the class has stack map frames: an application class may predate them (Java 6). */
    private boolean frames;

    /**
     * {@code initializerEnter}: the {@code ClassInits} method that opens the static initializer's
     * bracket; {@code application}: whether the class is the program's.
     */
    UnloggedRewriter(ClassVisitor next, String initializerEnter, boolean application) {
        super(Opcodes.ASM9, next);
        this.initializerEnter = initializerEnter;
        this.application = application;
    }

    @Override
    public void visit(int version, int access, String name, String signature, String superName, String[] interfaces) {
        this.className = name;
        this.subclass = superName != null && !superName.equals("java/lang/Object");
        this.frames = (version & 0xFFFF) >= Opcodes.V1_6;
        super.visit(version, access, name, signature, superName, interfaces);
    }

    @Override
    public MethodVisitor visitMethod(int access, String name, String desc, String signature, String[] exceptions) {
        MethodVisitor mv = super.visitMethod(access, name, desc, signature, exceptions);
        if ((access & (Opcodes.ACC_ABSTRACT | Opcodes.ACC_NATIVE)) != 0) {
            return mv;
        }
        if (name.equals("<clinit>")) {
            return new Bracket(mv, INITS, initializerEnter, "exit", className);
        }
        boolean loads = application && subclass && (access & Opcodes.ACC_STATIC) == 0 && name.equals("loadClass")
                && desc.equals(LOAD_CLASS);
        return loads || !name.equals("<init>") && JdkInternals.unlogged(className, name)
                ? new Bracket(mv, RT, "suppress", "unsuppress", null) : mv;
    }

    private final class Bracket extends InstructionHookVisitor {
        private final Label start = new Label();
        private final Label end = new Label();
        private final Label handler = new Label();
        private final String owner;
        private final String open;
        private final String close;
        /** The calls' one argument, or null for none. */
        private final String argument;
        private final String desc;

        Bracket(MethodVisitor mv, String owner, String open, String close, String argument) {
            super(mv);
            this.owner = owner;
            this.open = open;
            this.close = close;
            this.argument = argument;
            this.desc = argument == null ? "()V" : "(Ljava/lang/String;)V";
        }

        private void call(String method) {
            if (argument != null) {
                super.visitLdcInsn(argument);
            }
            super.visitMethodInsn(Opcodes.INVOKESTATIC, owner, method, desc, false);
        }

        /** The handler's entry follows the method's own, which the reader reports before any code. */
        @Override
        void beforeCode() {
            super.visitTryCatchBlock(start, end, handler, null);
            call(open);
            super.visitLabel(start);
        }

        @Override
        public void visitInsn(int opcode) {
            if (opcode >= Opcodes.IRETURN && opcode <= Opcodes.RETURN) {
                call(close);
            }
            super.visitInsn(opcode);
        }

        @Override
        public void visitMaxs(int maxStack, int maxLocals) {
            super.visitLabel(end);
            super.visitLabel(handler);
            if (frames) {
                super.visitFrame(Opcodes.F_FULL, 0, new Object[0], 1, new Object[] {"java/lang/Throwable"});
            }
            call(close);
            super.visitInsn(Opcodes.ATHROW);
            super.visitMaxs(argument == null ? Math.max(maxStack, 1) : maxStack + 2, maxLocals);
        }
    }
}
