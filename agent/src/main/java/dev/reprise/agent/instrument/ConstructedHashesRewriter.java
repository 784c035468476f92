package dev.reprise.agent.instrument;

import java.util.ArrayDeque;
import java.util.Collections;
import java.util.Deque;
import java.util.Set;

import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.InsnList;
import org.objectweb.asm.tree.InsnNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.TypeInsnNode;

/**
 * Where an application class makes an object of a class whose objects a recording saw threads
 * race to hash first ({@code owner.#hash} among the ordered fields), gives the new object its
 * identity hash as its constructor returns ({@code IdentityHashes.constructed}): from the making
 * thread's context, at the same point of every run, whichever thread would hash it first. Only
 * the {@code new C; dup; ...; invokespecial C.<init>} shape compilers emit for an expression is
 * rewritten: after the constructor the copy left on the stack is the new object. Only bodies change.
 */
final class ConstructedHashesRewriter extends ClassVisitor {
    private static final String HASHES = "dev/reprise/agent/runtime/identity/IdentityHashes";

    ConstructedHashesRewriter(ClassVisitor next) {
        super(Opcodes.ASM9, next);
    }

    /** Whether the class names one of the classes whose objects are hashed where they are made. */
    static boolean applies(ClassReader reader) {
        Set<String> hashed = OrderedFields.hashedAtConstruction();
        return !hashed.isEmpty() && !Collections.disjoint(hashed, ConstantPool.names(reader, ConstantPool.CLASS));
    }

    @Override
    public MethodVisitor visitMethod(int access, String name, String desc, String signature, String[] exceptions) {
        String[] thrown = exceptions;
        return new MethodNode(Opcodes.ASM9, access, name, desc, signature, exceptions) {
            @Override
            public void visitEnd() {
                rewrite(this);
                MethodVisitor next = ConstructedHashesRewriter.super.visitMethod(access, name, desc, signature, thrown);
                if (next != null) {
                    accept(next);
                }
            }
        };
    }

    /**
     * Pairs each {@code new} with its constructor call, innermost first, as they nest in an
     * expression ({@code new A(new B())}); a constructor called on no pending {@code new} is a
     * constructor's own {@code super(...)} or {@code this(...)}, left alone.
     */
    private static void rewrite(MethodNode m) {
        // Per pending new: its class if it is hashed where made and a dup follows it, else "".
        Deque<String> pending = new ArrayDeque<>();
        boolean added = false;
        for (AbstractInsnNode i = m.instructions.getFirst(); i != null; i = i.getNext()) {
            if (i.getOpcode() == Opcodes.NEW) {
                String type = ((TypeInsnNode) i).desc;
                AbstractInsnNode after = next(i);
                boolean dup = after != null && after.getOpcode() == Opcodes.DUP;
                pending.push(dup && OrderedFields.hashesAtConstruction(type) ? type : "");
            } else if (i instanceof MethodInsnNode call && call.getOpcode() == Opcodes.INVOKESPECIAL
                    && call.name.equals("<init>") && !pending.isEmpty() && pending.pop().equals(call.owner)) {
                InsnList hash = new InsnList();
                hash.add(new InsnNode(Opcodes.DUP));
                hash.add(new MethodInsnNode(Opcodes.INVOKESTATIC, HASHES, "constructed", "(Ljava/lang/Object;)V", false));
                AbstractInsnNode last = hash.getLast();
                m.instructions.insert(call, hash);
                i = last; // go on past what was added
                added = true;
            }
        }
        if (added) {
            m.maxStack++;
        }
    }

    /** The instruction after {@code i}, past labels, line numbers and frames. */
    private static AbstractInsnNode next(AbstractInsnNode i) {
        AbstractInsnNode n = i.getNext();
        while (n != null && n.getOpcode() < 0) {
            n = n.getNext();
        }
        return n;
    }
}
