package dev.reprise.agent.instrument;

import java.util.ArrayList;
import java.util.List;

import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * A method visitor that brackets single instructions with a static call before and a static
 * closing call after, the closing call also on the exception path: a handler shared by the
 * method's brackets closes and rethrows. Its exception-table entries must precede the method's
 * own (the innermost range wins), which the reader reports before any instruction, so those are
 * held back and emitted after ours. In a constructor, brackets before the call of the
 * superclass's (or another own) constructor get a handler of their own, whose frame states that
 * {@code this} is still uninitialized.
 */
abstract class BracketingVisitor extends MethodVisitor {
    private final String closeOwner;
    private final String closeName;
    private final int version;
    private final Label handler = new Label();
    private final List<Label[]> ranges = new ArrayList<>();
    private final Label uninitializedHandler = new Label();
    private final List<Label[]> uninitializedRanges = new ArrayList<>();
    private final List<Object[]> heldBack = new ArrayList<>();

    /** {@code close}: the static {@code ()V} method of {@code closeOwner} that ends a bracket. */
    BracketingVisitor(MethodVisitor mv, int classVersion, String closeOwner, String close) {
        super(Opcodes.ASM9, mv);
        this.version = classVersion & 0xFFFF;
        this.closeOwner = closeOwner;
        this.closeName = close;
    }

    @Override
    public void visitTryCatchBlock(Label start, Label end, Label handler, String type) {
        heldBack.add(new Object[] {start, end, handler, type});
    }

    /** After the opening call: starts the handled range. */
    final Label open() {
        Label start = new Label();
        super.visitLabel(start);
        return start;
    }

    /** After the bracketed instruction: ends the handled range and closes. */
    final void close(Label start) {
        close(start, false);
    }

    /** Like {@link #close(Label)}; {@code thisUninitialized}: in a constructor, before its superclass's is called. */
    final void close(Label start, boolean thisUninitialized) {
        Label end = new Label();
        super.visitLabel(end);
        (thisUninitialized ? uninitializedRanges : ranges).add(new Label[] {start, end});
        super.visitMethodInsn(Opcodes.INVOKESTATIC, closeOwner, closeName, "()V", false);
    }

    /** Stack words the brackets' own code needs above the method's. */
    int extraStack() {
        return 1;
    }

    /** Locals the brackets' own code needs, or the method's {@code maxLocals}. */
    int maxLocals(int maxLocals) {
        return maxLocals;
    }

    @Override
    public final void visitMaxs(int maxStack, int maxLocals) {
        emitHandler(handler, ranges, new Object[0]);
        emitHandler(uninitializedHandler, uninitializedRanges, new Object[] {Opcodes.UNINITIALIZED_THIS});
        for (Object[] b : heldBack) {
            super.visitTryCatchBlock((Label) b[0], (Label) b[1], (Label) b[2], (String) b[3]);
        }
        super.visitMaxs(maxStack + extraStack(), maxLocals(maxLocals));
    }

    private void emitHandler(Label at, List<Label[]> covered, Object[] locals) {
        if (covered.isEmpty()) {
            return;
        }
        super.visitLabel(at);
        if (version >= Opcodes.V1_6) {
            super.visitFrame(Opcodes.F_FULL, locals.length, locals, 1, new Object[] {"java/lang/Throwable"});
        }
        super.visitMethodInsn(Opcodes.INVOKESTATIC, closeOwner, closeName, "()V", false);
        super.visitInsn(Opcodes.ATHROW);
        for (Label[] r : covered) {
            super.visitTryCatchBlock(r[0], r[1], at, null);
        }
    }
}
