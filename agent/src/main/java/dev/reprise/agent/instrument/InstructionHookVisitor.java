package dev.reprise.agent.instrument;

import org.objectweb.asm.Handle;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * A method visitor told once before the method's code ({@link #beforeCode}), and before each
 * instruction ({@link #beforeInstruction}): the place for a pass that must emit something after
 * the exception table, which the reader reports before any code (so that its own entries come
 * after the method's, the innermost first), or after the labels, line numbers and frames that
 * precede an instruction. What a subclass emits itself through {@code super} reaches the hooks
 * too, so they must be idempotent.
 */
abstract class InstructionHookVisitor extends MethodVisitor {
    private boolean codeStarted;

    InstructionHookVisitor(MethodVisitor mv) {
        super(Opcodes.ASM9, mv);
    }

    /** Runs once, before the first label, line number, frame or instruction. */
    void beforeCode() {
    }

    /** Runs before each instruction, and before {@code visitMaxs}. */
    void beforeInstruction() {
    }

    private void code() {
        if (!codeStarted) {
            codeStarted = true;
            beforeCode();
        }
    }

    private void instruction() {
        code();
        beforeInstruction();
    }

    @Override
    public void visitLabel(Label label) {
        code();
        super.visitLabel(label);
    }

    @Override
    public void visitLineNumber(int line, Label start) {
        code();
        super.visitLineNumber(line, start);
    }

    @Override
    public void visitFrame(int type, int numLocal, Object[] local, int numStack, Object[] stack) {
        code();
        super.visitFrame(type, numLocal, local, numStack, stack);
    }

    @Override
    public void visitInsn(int opcode) {
        instruction();
        super.visitInsn(opcode);
    }

    @Override
    public void visitIntInsn(int opcode, int operand) {
        instruction();
        super.visitIntInsn(opcode, operand);
    }

    @Override
    public void visitVarInsn(int opcode, int var) {
        instruction();
        super.visitVarInsn(opcode, var);
    }

    @Override
    public void visitTypeInsn(int opcode, String type) {
        instruction();
        super.visitTypeInsn(opcode, type);
    }

    @Override
    public void visitFieldInsn(int opcode, String owner, String name, String desc) {
        instruction();
        super.visitFieldInsn(opcode, owner, name, desc);
    }

    @Override
    public void visitMethodInsn(int opcode, String owner, String name, String desc, boolean itf) {
        instruction();
        super.visitMethodInsn(opcode, owner, name, desc, itf);
    }

    @Override
    public void visitInvokeDynamicInsn(String name, String desc, Handle bsm, Object... bsmArgs) {
        instruction();
        super.visitInvokeDynamicInsn(name, desc, bsm, bsmArgs);
    }

    @Override
    public void visitJumpInsn(int opcode, Label label) {
        instruction();
        super.visitJumpInsn(opcode, label);
    }

    @Override
    public void visitLdcInsn(Object value) {
        instruction();
        super.visitLdcInsn(value);
    }

    @Override
    public void visitIincInsn(int var, int increment) {
        instruction();
        super.visitIincInsn(var, increment);
    }

    @Override
    public void visitTableSwitchInsn(int min, int max, Label dflt, Label... labels) {
        instruction();
        super.visitTableSwitchInsn(min, max, dflt, labels);
    }

    @Override
    public void visitLookupSwitchInsn(Label dflt, int[] keys, Label[] labels) {
        instruction();
        super.visitLookupSwitchInsn(dflt, keys, labels);
    }

    @Override
    public void visitMultiANewArrayInsn(String desc, int numDimensions) {
        instruction();
        super.visitMultiANewArrayInsn(desc, numDimensions);
    }

    @Override
    public void visitMaxs(int maxStack, int maxLocals) {
        instruction();
        super.visitMaxs(maxStack, maxLocals);
    }
}
