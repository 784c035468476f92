package dev.reprise.agent.instrument;

import java.util.function.Function;

import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.LocalVariableNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.TryCatchBlockNode;

import dev.reprise.agent.runtime.ordering.AloneMain;

/**
 * Gives a method that {@link AloneMain#copied} names, and whose synchronization actions
 * {@link SyncActionRewriter} brackets, a second body: the method as it was, which runs while the
 * current thread is main running alone ({@link AloneMain#thread}), before the bracketed one,
 * which runs otherwise:
 * <pre>
 *   if (AloneMain.thread == Thread.currentThread()) { original body }
 *   bracketed body
 * </pre>
 * Main alone orders nothing (every later thread starts after it in the recorded order), so its
 * actions there are no events, in a recording and its replays alike: the condition holds at the
 * same points in both. The brackets are out-of-line calls in the JIT's code, and in the methods of
 * {@code ConcurrentHashMap} that a single-threaded program runs most they cost more than the work
 * they do (BENCHMARKS.md).
 *
 * <p>A method without an action keeps its one body. The original body's stack map frames are
 * stated relative to the method's entry, and so are the bracketed body's, which therefore begins
 * with a full frame of the entry's locals, then a {@code nop} so that a frame the original states
 * at its first instruction does not fall on the same offset.
 */
final class AloneCopy extends MethodNode {
    private static final String ALONE = Type.getInternalName(AloneMain.class);

    private final MethodVisitor out;
    private final Function<MethodVisitor, BracketingVisitor> brackets;
    private final String className;

    /** {@code brackets}: the bracketing pass over the visitor it is given; {@code out}: where the method goes. */
    AloneCopy(MethodVisitor out, Function<MethodVisitor, BracketingVisitor> brackets, String className, int access, String name, String desc,
              String signature, String[] exceptions) {
        super(Opcodes.ASM9, access, name, desc, signature, exceptions);
        this.out = out;
        this.brackets = brackets;
        this.className = className;
    }

    @Override
    public void visitEnd() {
        MethodNode bracketed = new MethodNode(Opcodes.ASM9, access, name, desc, signature, exceptions.toArray(new String[0]));
        BracketingVisitor bracketing = brackets.apply(bracketed);
        accept(bracketing);
        if (!bracketing.bracketedAny()) {
            bracketed.accept(out);
            return;
        }
        instructions.resetLabels(); // this body is written a second time: its labels must be new ones
        Label ordered = new Label();
        accept(new MethodVisitor(Opcodes.ASM9, out) {
            @Override
            public void visitCode() {
                super.visitCode();
                super.visitFieldInsn(Opcodes.GETSTATIC, ALONE, "thread", "Ljava/lang/Thread;");
                super.visitMethodInsn(Opcodes.INVOKESTATIC, "java/lang/Thread", "currentThread", "()Ljava/lang/Thread;", false);
                super.visitJumpInsn(Opcodes.IF_ACMPNE, ordered);
            }

            @Override
            public void visitMaxs(int maxStack, int maxLocals) {
                super.visitLabel(ordered);
                Object[] entry = Frames.entryLocals(className, (access & Opcodes.ACC_STATIC) != 0, desc);
                super.visitFrame(Opcodes.F_FULL, entry.length, entry, 0, new Object[0]);
                super.visitInsn(Opcodes.NOP);
                bracketed.instructions.accept(out);
                for (TryCatchBlockNode t : bracketed.tryCatchBlocks) {
                    t.accept(out);
                }
                if (bracketed.localVariables != null) {
                    for (LocalVariableNode v : bracketed.localVariables) {
                        v.accept(out);
                    }
                }
                super.visitMaxs(Math.max(Math.max(maxStack, 2), bracketed.maxStack), Math.max(maxLocals, bracketed.maxLocals));
            }
        });
    }
}
