package dev.reprise.agent.instrument;

import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * Brackets a JDK class's calls to the owners {@link #brackets} names with a static call of
 * {@code runtime}'s {@code open} before and its {@code close} after, also when the call throws:
 * what the thread's own work counts as changes while the JDK runs the call
 * ({@link QuietCallRewriter}, {@link UnwatchedCallRewriter}). A constructor's call of its
 * superclass's (or another own) constructor is never bracketed: {@code this} is uninitialized
 * until it returns. Only method bodies change, so such a pass is valid on retransformation.
 */
abstract class CallBracketRewriter extends ClassVisitor {
    private final String runtime;
    private final String open;
    private final String close;
    private int version;
    private String className;
    private String superName;

    CallBracketRewriter(ClassVisitor next, String runtime, String open, String close) {
        super(Opcodes.ASM9, next);
        this.runtime = runtime;
        this.open = open;
        this.close = close;
    }

    /** Whether calls to methods of {@code owner} (an internal class name) are bracketed. */
    abstract boolean brackets(String owner);

    @Override
    public void visit(int version, int access, String name, String signature, String superName, String[] interfaces) {
        this.version = version;
        this.className = name;
        this.superName = superName;
        super.visit(version, access, name, signature, superName, interfaces);
    }

    @Override
    public MethodVisitor visitMethod(int access, String name, String desc, String signature, String[] exceptions) {
        MethodVisitor mv = super.visitMethod(access, name, desc, signature, exceptions);
        if ((access & (Opcodes.ACC_ABSTRACT | Opcodes.ACC_NATIVE)) != 0) {
            return mv;
        }
        return new BracketingVisitor(mv, version, runtime, close, className, access, name, desc) {
            /** In a constructor, {@code this} is uninitialized until the superclass's (or another own) constructor is called. */
            private boolean thisReady = !name.equals("<init>");

            @Override
            public void visitMethodInsn(int opcode, String owner, String method, String mdesc, boolean itf) {
                boolean initializesThis = !thisReady && opcode == Opcodes.INVOKESPECIAL && method.equals("<init>")
                        && (owner.equals(superName) || owner.equals(className));
                thisReady |= initializesThis;
                if (initializesThis || !brackets(owner)) {
                    super.visitMethodInsn(opcode, owner, method, mdesc, itf);
                    return;
                }
                super.visitMethodInsn(Opcodes.INVOKESTATIC, runtime, open, "()V", false);
                var start = open();
                super.visitMethodInsn(opcode, owner, method, mdesc, itf);
                close(start, !thisReady);
            }
        };
    }
}
