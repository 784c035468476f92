package dev.reprise.agent.instrument;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * A method visitor that brackets single instructions with a static call before and a static
 * closing call after, the closing call also on the exception path: a handler closes and rethrows.
 * Its exception-table entries must precede the method's own (the innermost range wins), which the
 * reader reports before any instruction, so those are held back and emitted after ours.
 *
 * <p>The rethrow must reach the handlers that covered the bracketed instruction: its
 * {@code catch}, {@code finally}, or the release of a {@code synchronized} block's monitor.
 * Brackets are therefore grouped by the method's entries that cover them, one handler per group,
 * and that handler's own code is covered by copies of those entries, in their order. Its stack
 * map frame states the locals the covering handlers' frames agree on, which every bracketed
 * instruction of the group has (the verifier checked them against those frames) and which each
 * of those handlers accepts. A handler that rethrew past them would leave a monitor held, and the
 * JIT compilers, which check that monitors balance, would never compile the method.
 *
 * <p>In a constructor, brackets before the call of the superclass's (or another own)
 * constructor get a handler of their own, whose frame states that {@code this} is still
 * uninitialized.
 */
abstract class BracketingVisitor extends MethodVisitor {
    /** The second slot of a long or double while merging frames slot by slot. */
    private static final Object SECOND_HALF = new Object();

    private final String closeOwner;
    private final String closeName;
    private final boolean frames;
    /** The method's exception-table entries, and those of passes before this one, held back. */
    private final List<Entry> entries = new ArrayList<>();
    /** Brackets by the entries covering them (a list in table order, compared element by element). */
    private final Map<List<Entry>, List<Label[]>> groups = new LinkedHashMap<>();
    private final Label uninitializedHandler = new Label();
    private final List<Label[]> uninitializedRanges = new ArrayList<>();
    /** The locals as of the last stack map frame, in the frames' notation (a long is one element). */
    private final List<Object> locals;
    /** Handler labels visited since the last frame, whose locals that frame states. */
    private final List<Label> handlersAwaitingFrame = new ArrayList<>();
    private final Map<Label, Object[]> handlerLocals = new HashMap<>();

    /** One exception-table entry; {@code open} while the code visited is inside its range. */
    private static final class Entry {
        final Label start;
        final Label end;
        final Label handler;
        final String type;
        boolean open;

        Entry(Label start, Label end, Label handler, String type) {
            this.start = start;
            this.end = end;
            this.handler = handler;
            this.type = type;
        }
    }

    /**
     * {@code close}: the static {@code ()V} method of {@code closeOwner} that ends a bracket;
     * {@code className}, {@code access} and {@code desc}: the method's, for its frames.
     */
    BracketingVisitor(MethodVisitor mv, int classVersion, String closeOwner, String close, String className, int access,
                      String name, String desc) {
        super(Opcodes.ASM9, mv);
        this.frames = (classVersion & 0xFFFF) >= Opcodes.V1_6;
        this.closeOwner = closeOwner;
        this.closeName = close;
        Object[] entry = Frames.entryLocals(className, (access & Opcodes.ACC_STATIC) != 0, desc);
        if (name.equals("<init>")) {
            entry[0] = Opcodes.UNINITIALIZED_THIS;
        }
        this.locals = new ArrayList<>(Arrays.asList(entry));
    }

    @Override
    public void visitTryCatchBlock(Label start, Label end, Label handler, String type) {
        entries.add(new Entry(start, end, handler, type));
    }

    @Override
    public void visitLabel(Label label) {
        for (Entry e : entries) {
            if (e.end == label) {
                e.open = false;
            }
        }
        for (Entry e : entries) {
            if (e.start == label) {
                e.open = true;
            }
            if (e.handler == label) {
                handlersAwaitingFrame.add(label);
            }
        }
        super.visitLabel(label);
    }

    @Override
    public void visitFrame(int type, int numLocal, Object[] local, int numStack, Object[] stack) {
        Frames.advance(locals, type, numLocal, local);
        for (Label h : handlersAwaitingFrame) {
            handlerLocals.put(h, locals.toArray());
        }
        handlersAwaitingFrame.clear();
        super.visitFrame(type, numLocal, local, numStack, stack);
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
        if (thisUninitialized) {
            uninitializedRanges.add(new Label[] {start, end});
        } else {
            List<Entry> covering = new ArrayList<>();
            for (Entry e : entries) {
                if (e.open) {
                    covering.add(e);
                }
            }
            groups.computeIfAbsent(covering, k -> new ArrayList<>()).add(new Label[] {start, end});
        }
        super.visitMethodInsn(Opcodes.INVOKESTATIC, closeOwner, closeName, "()V", false);
    }

    /** Whether the method had an instruction to bracket; known once the method is visited. */
    final boolean bracketedAny() {
        return !groups.isEmpty() || !uninitializedRanges.isEmpty();
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
        List<Object[]> copies = new ArrayList<>();
        for (Map.Entry<List<Entry>, List<Label[]>> g : groups.entrySet()) {
            List<Entry> covering = g.getKey();
            Object[] agreed = covering.isEmpty() ? new Object[0] : agreedLocals(covering);
            boolean rethrowInside = !covering.isEmpty() && (agreed != null || !frames);
            Label at = new Label();
            Label end = emitHandler(at, g.getValue(), rethrowInside && agreed != null ? agreed : new Object[0]);
            if (rethrowInside) {
                for (Entry e : covering) {
                    copies.add(new Object[] {at, end, e.handler, e.type});
                }
            }
        }
        emitHandler(uninitializedHandler, uninitializedRanges, new Object[] {Opcodes.UNINITIALIZED_THIS});
        for (Entry e : entries) {
            super.visitTryCatchBlock(e.start, e.end, e.handler, e.type);
        }
        for (Object[] c : copies) {
            super.visitTryCatchBlock((Label) c[0], (Label) c[1], (Label) c[2], (String) c[3]);
        }
        super.visitMaxs(bracketedAny() ? maxStack + extraStack() : maxStack, maxLocals(maxLocals));
    }

    /** Emits a handler for {@code covered} ranges with {@code locals} in its frame; returns the label after its code. */
    private Label emitHandler(Label at, List<Label[]> covered, Object[] locals) {
        Label end = new Label();
        if (covered.isEmpty()) {
            return end;
        }
        super.visitLabel(at);
        if (frames) {
            super.visitFrame(Opcodes.F_FULL, locals.length, locals, 1, new Object[] {"java/lang/Throwable"});
        }
        super.visitMethodInsn(Opcodes.INVOKESTATIC, closeOwner, closeName, "()V", false);
        super.visitInsn(Opcodes.ATHROW);
        super.visitLabel(end);
        for (Label[] r : covered) {
            super.visitTryCatchBlock(r[0], r[1], at, null);
        }
        return end;
    }

    /**
     * The locals on which the frames of the {@code covering} entries' handlers agree: slot by
     * slot, the type the handlers that state one give (the others leave the slot unused). Null if
     * a frame is unknown, two handlers state different types for a slot, or a slot holds an
     * uninitialized object: the group's handler then rethrows past them, as a last resort.
     */
    private Object[] agreedLocals(List<Entry> covering) {
        List<Object> agreed = new ArrayList<>();
        for (Entry e : covering) {
            Object[] frame = handlerLocals.get(e.handler);
            if (frame == null) {
                return null;
            }
            List<Object> slots = new ArrayList<>();
            for (Object t : frame) {
                if (!(t instanceof String) && !(t instanceof Integer) || Integer.valueOf(Opcodes.UNINITIALIZED_THIS).equals(t)) {
                    return null;
                }
                slots.add(t);
                if (Integer.valueOf(Opcodes.LONG).equals(t) || Integer.valueOf(Opcodes.DOUBLE).equals(t)) {
                    slots.add(SECOND_HALF);
                }
            }
            for (int i = 0; i < slots.size(); i++) {
                Object mine = slots.get(i);
                if (i >= agreed.size()) {
                    agreed.add(mine);
                } else if (isTop(agreed.get(i))) {
                    agreed.set(i, mine);
                } else if (!isTop(mine) && !mine.equals(agreed.get(i))) {
                    return null;
                }
            }
        }
        List<Object> out = new ArrayList<>();
        for (int i = 0; i < agreed.size(); i++) {
            Object t = agreed.get(i);
            if (t == SECOND_HALF) {
                return null; // a long's or double's second slot without its first
            }
            out.add(t);
            if (Integer.valueOf(Opcodes.LONG).equals(t) || Integer.valueOf(Opcodes.DOUBLE).equals(t)) {
                if (i + 1 >= agreed.size() || agreed.get(i + 1) != SECOND_HALF) {
                    return null;
                }
                i++;
            }
        }
        while (!out.isEmpty() && isTop(out.get(out.size() - 1))) {
            out.remove(out.size() - 1);
        }
        return out.toArray();
    }

    private static boolean isTop(Object t) {
        return Integer.valueOf(Opcodes.TOP).equals(t);
    }
}
