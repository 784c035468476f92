package dev.reprise.agent.instrument;

import java.util.HashSet;
import java.util.Set;

import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.FieldInsnNode;
import org.objectweb.asm.tree.InsnNode;
import org.objectweb.asm.tree.JumpInsnNode;
import org.objectweb.asm.tree.LabelNode;
import org.objectweb.asm.tree.LookupSwitchInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.TableSwitchInsnNode;
import org.objectweb.asm.tree.TryCatchBlockNode;
import org.objectweb.asm.tree.VarInsnNode;

/**
 * Reads a field that {@code record --order-field} names once where a method tests it and then
 * reads it again: {@code cache == null || cache.get() == null}, {@code if (count > 0) use(count)}.
 * The second read becomes a load of the first one's value, kept in a local. Each read of such a
 * field is an ordered event ({@link SyncActionRewriter}, which sees only the first), and h2 makes
 * this test of its value cache millions of times.
 *
 * <p>Allowed by the memory model as a compiler's read elimination is: between the two reads the
 * thread does nothing but the test, no synchronization, so the second may see the write the first
 * saw. Only the path that falls through the test is rewritten, only where no other path joins it
 * before the second read (no label there that a jump, a switch or a handler targets), only for a
 * field of one slot (not {@code long} or {@code double}), and for an instance field only when both
 * reads load the object from one local, which nothing stores into between them. A recording and
 * its replays run the same rewritten code.
 */
final class RepeatedReads extends ClassVisitor {
    private final VolatileFields.Lookup fields;
    private final MethodLocals locals;

    RepeatedReads(ClassVisitor next, VolatileFields.Lookup fields, MethodLocals locals) {
        super(Opcodes.ASM9, next);
        this.fields = fields;
        this.locals = locals;
    }

    @Override
    public MethodVisitor visitMethod(int access, String name, String desc, String signature, String[] exceptions) {
        String[] thrown = exceptions;
        // The next passes see the method once this one has claimed its locals: at its end.
        return new MethodNode(Opcodes.ASM9, access, name, desc, signature, exceptions) {
            @Override
            public void visitEnd() {
                if (locals.first(name + desc) >= 0) {
                    rewrite(this);
                }
                MethodVisitor next = RepeatedReads.super.visitMethod(access, name, desc, signature, thrown);
                if (next != null) {
                    accept(next);
                }
            }
        };
    }

    private void rewrite(MethodNode m) {
        Set<LabelNode> joins = null;
        for (AbstractInsnNode i = m.instructions.getFirst(); i != null; i = i.getNext()) {
            if (!(i instanceof FieldInsnNode first) || !named(first)) {
                continue;
            }
            if (joins == null) {
                joins = joins(m);
            }
            AbstractInsnNode test = next(i, joins);
            if (test == null || !testsValue(test.getOpcode())) {
                continue;
            }
            AbstractInsnNode reload = next(test, joins);
            AbstractInsnNode second = reload;
            if (first.getOpcode() == Opcodes.GETFIELD) {
                AbstractInsnNode load = previous(first);
                boolean sameObject = load instanceof VarInsnNode a && a.getOpcode() == Opcodes.ALOAD
                        && reload instanceof VarInsnNode b && b.getOpcode() == Opcodes.ALOAD && a.var == b.var;
                second = sameObject ? next(reload, joins) : null;
            }
            if (!(second instanceof FieldInsnNode f) || f.getOpcode() != first.getOpcode()
                    || !f.owner.equals(first.owner) || !f.name.equals(first.name)) {
                continue;
            }
            Type type = Type.getType(first.desc);
            int kept = locals.claim(m.name + m.desc, 1);
            m.instructions.insert(first, new VarInsnNode(type.getOpcode(Opcodes.ISTORE), kept));
            m.instructions.insert(first, new InsnNode(Opcodes.DUP));
            if (reload != second) {
                m.instructions.remove(reload);
            }
            m.instructions.set(second, new VarInsnNode(type.getOpcode(Opcodes.ILOAD), kept));
            m.maxLocals = Math.max(m.maxLocals, kept + 1);
            m.maxStack += 1;
        }
    }

    /** A read of a one-slot field that {@code record --order-field} names. */
    private boolean named(FieldInsnNode f) {
        if ((f.getOpcode() != Opcodes.GETSTATIC && f.getOpcode() != Opcodes.GETFIELD)
                || Type.getType(f.desc).getSize() != 1 || !OrderedFields.namesAField(f.name)) {
            return false;
        }
        String declarer = fields.orderedDeclarer(f.owner, f.name, false);
        return declarer != null && OrderedFields.contains(declarer, f.name);
    }

    /** A conditional jump that consumes one value: the read's. */
    private static boolean testsValue(int opcode) {
        return opcode == Opcodes.IFNULL || opcode == Opcodes.IFNONNULL || (opcode >= Opcodes.IFEQ && opcode <= Opcodes.IFLE);
    }

    /** The instruction after {@code i}, past line numbers and labels no other path enters by; null if a path joins there. */
    private static AbstractInsnNode next(AbstractInsnNode i, Set<LabelNode> joins) {
        for (AbstractInsnNode n = i.getNext(); n != null; n = n.getNext()) {
            if (n instanceof LabelNode l && joins.contains(l) || n.getType() == AbstractInsnNode.FRAME) {
                return null;
            }
            if (n.getOpcode() >= 0) {
                return n;
            }
        }
        return null;
    }

    /** The instruction right before {@code i}, or null if a label or line number comes between. */
    private static AbstractInsnNode previous(AbstractInsnNode i) {
        AbstractInsnNode p = i.getPrevious();
        return p != null && p.getOpcode() >= 0 ? p : null;
    }

    /** The labels other paths reach: jump and switch targets, handlers. */
    private static Set<LabelNode> joins(MethodNode m) {
        Set<LabelNode> joins = new HashSet<>();
        for (AbstractInsnNode i = m.instructions.getFirst(); i != null; i = i.getNext()) {
            if (i instanceof JumpInsnNode j) {
                joins.add(j.label);
            } else if (i instanceof TableSwitchInsnNode s) {
                joins.add(s.dflt);
                joins.addAll(s.labels);
            } else if (i instanceof LookupSwitchInsnNode s) {
                joins.add(s.dflt);
                joins.addAll(s.labels);
            }
        }
        for (TryCatchBlockNode t : m.tryCatchBlocks) {
            joins.add(t.handler);
        }
        return joins;
    }
}
