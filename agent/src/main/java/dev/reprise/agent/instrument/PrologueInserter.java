package dev.reprise.agent.instrument;

import java.util.List;

import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;

import dev.reprise.agent.ops.Prologue.Kind;

/**
 * Adds to each hooked method the prologue
 * {@code if (Rt.claim()) return Hook.m(this, args...);} (or its {@link Kind} variant) and
 * leaves the body as it was. No member is added, so the pass is valid for retransforming JDK
 * classes.
 *
 * <p>A claimed call also gets the hook's tail, written here once rather than in every hook:
 * <pre>
 * if (Rt.claim()) {
 *     try { R r = Hook.m(this, args...); Rt.ended(); return r; }
 *     catch (Throwable t) { throw Rt.failed(t); }
 * }
 * </pre>
 * so a hook opens its event, codes it and returns: ending the event, recording what it threw
 * and releasing the claim are the prologue's. An instance method's claim is
 * {@code IdentityHashes.claimOn(this)}: the receiver takes its identity hash before the event,
 * whose live work may hash it where no replay does.
 */
final class PrologueInserter extends ClassVisitor {
    static final String RT = "dev/reprise/agent/runtime/events/Rt";
    private static final String IDENTITY = "dev/reprise/agent/runtime/identity/IdentityHashes";

    private final List<Catalogue.PrologueHook> hooks;
    private final List<Catalogue.PrologueHook> applied;
    private int version;

    PrologueInserter(ClassVisitor next, List<Catalogue.PrologueHook> hooks, List<Catalogue.PrologueHook> applied) {
        super(Opcodes.ASM9, next);
        this.hooks = hooks;
        this.applied = applied;
    }

    @Override
    public void visit(int version, int access, String name, String signature, String superName, String[] interfaces) {
        this.version = version & 0xFFFF;
        super.visit(version, access, name, signature, superName, interfaces);
    }

    @Override
    public MethodVisitor visitMethod(int access, String name, String desc, String signature, String[] exceptions) {
        MethodVisitor mv = super.visitMethod(access, name, desc, signature, exceptions);
        for (Catalogue.PrologueHook h : hooks) {
            if (h.method().equals(name) && h.desc().equals(desc)) {
                if ((access & (Opcodes.ACC_NATIVE | Opcodes.ACC_ABSTRACT)) != 0) {
                    throw new IllegalStateException(h.owner() + "." + name + desc + " has no body to hook");
                }
                // A constructor's receiver is not initialized yet: an ANY_THREAD hook gets its arguments alone.
                boolean noReceiver = (access & Opcodes.ACC_STATIC) != 0 || name.equals("<init>") && h.kind() == Kind.ANY_THREAD;
                checkHookShape(h, noReceiver);
                applied.add(h);
                return new Prologue(mv, h, (access & Opcodes.ACC_STATIC) != 0, noReceiver, name.equals("<init>"));
            }
        }
        return mv;
    }

    private static void checkHookShape(Catalogue.PrologueHook h, boolean noReceiver) {
        Type target = Type.getMethodType(h.desc());
        Type hook = Type.getMethodType(h.hookDesc());
        int receiver = noReceiver ? 0 : 1;
        Type returned = switch (h.kind()) {
            case BEFORE, ANY_THREAD -> Type.VOID_TYPE;
            case UNRECORDED -> Type.BOOLEAN_TYPE;
            default -> target.getReturnType();
        };
        if (h.kind() == Kind.UNRECORDED && target.getReturnType() != Type.VOID_TYPE) {
            throw new IllegalStateException(h.owner() + "." + h.method() + h.desc() + " returns a value: an UNRECORDED hook cannot stand in for it");
        }
        if (hook.getArgumentTypes().length != target.getArgumentTypes().length + receiver
                || !hook.getReturnType().equals(returned) && !castsResult(hook, returned)) {
            throw new IllegalStateException("hook " + h.hookName() + h.hookDesc() + " does not fit "
                    + h.owner() + "." + h.method() + h.desc());
        }
    }

    /**
     * A hook may return {@code Object} for a target returning a type the baseline JDK lacks (the
     * agent is compiled on JDK 17, a {@code MemorySegment} is JDK 22's): the prologue casts it.
     */
    private static boolean castsResult(Type hook, Type returned) {
        return hook.getReturnType().equals(OBJECT) && (returned.getSort() == Type.OBJECT || returned.getSort() == Type.ARRAY);
    }

    private static final Type OBJECT = Type.getType(Object.class);

    private final class Prologue extends MethodVisitor {
        /**
         * The prologue loads the receiver and every argument, then holds the hook's result or,
         * in the tail's handler, what it threw: at least that much stack.
         */
        @Override
        public void visitMaxs(int maxStack, int maxLocals) {
            super.visitMaxs(Math.max(maxStack, Math.max(argumentSlots, Math.max(resultSlots, 1))), maxLocals);
        }

        private final Catalogue.PrologueHook hook;
        private final boolean isStatic;
        /** The hook takes no receiver: a static method's, or a constructor's ANY_THREAD hook. */
        private final boolean noReceiver;
        /** A claimed hook of a method, not a constructor: the prologue has the hook's tail. */
        private final boolean tail;
        private int argumentSlots;
        private int resultSlots;

        Prologue(MethodVisitor mv, Catalogue.PrologueHook hook, boolean isStatic, boolean noReceiver, boolean constructor) {
            super(Opcodes.ASM9, mv);
            this.hook = hook;
            this.isStatic = isStatic;
            this.noReceiver = noReceiver;
            this.tail = hook.kind() == Kind.CLAIMED && !constructor;
        }

        @Override
        public void visitCode() {
            super.visitCode();
            if (hook.kind() == Kind.ANY_THREAD) {
                argumentSlots = loadArguments();
                super.visitMethodInsn(Opcodes.INVOKESTATIC, hook.hookOwner(), hook.hookName(), hook.hookDesc(), false);
                return;
            }
            Label body = new Label();
            Label call = new Label();
            Label called = new Label();
            Label threw = new Label();
            if (tail) {
                super.visitTryCatchBlock(call, called, threw, "java/lang/Throwable");
            }
            if (tail && !isStatic) {
                super.visitVarInsn(Opcodes.ALOAD, 0);
                super.visitMethodInsn(Opcodes.INVOKESTATIC, IDENTITY, "claimOn", "(Ljava/lang/Object;)Z", false);
            } else {
                super.visitMethodInsn(Opcodes.INVOKESTATIC, RT, test(hook.kind()), "()Z", false);
            }
            super.visitJumpInsn(Opcodes.IFEQ, body);
            super.visitLabel(call);
            int slot = loadArguments();
            super.visitMethodInsn(Opcodes.INVOKESTATIC, hook.hookOwner(), hook.hookName(), hook.hookDesc(), false);
            if (tail) {
                super.visitLabel(called);
                super.visitMethodInsn(Opcodes.INVOKESTATIC, RT, "ended", "()V", false);
            }
            if (hook.kind() == Kind.UNRECORDED) {
                super.visitJumpInsn(Opcodes.IFEQ, body);
                super.visitInsn(Opcodes.RETURN);
            } else if (hook.kind() != Kind.BEFORE) {
                Type result = Type.getReturnType(hook.desc());
                if (!Type.getReturnType(hook.hookDesc()).equals(result)) { // an Object hook's (castsResult)
                    super.visitTypeInsn(Opcodes.CHECKCAST, result.getInternalName());
                }
                resultSlots = result.getSize();
                super.visitInsn(result.getOpcode(Opcodes.IRETURN));
            }
            if (tail) {
                super.visitLabel(threw);
                if (version >= Opcodes.V1_6) {
                    super.visitFrame(Opcodes.F_SAME1, 0, null, 1, new Object[] {"java/lang/Throwable"});
                }
                super.visitMethodInsn(Opcodes.INVOKESTATIC, RT, "failed", "(Ljava/lang/Throwable;)Ljava/lang/RuntimeException;", false);
                super.visitInsn(Opcodes.ATHROW);
            }
            argumentSlots = slot;
            super.visitLabel(body);
            if (version >= Opcodes.V1_6) {
                super.visitFrame(Opcodes.F_SAME, 0, null, 0, null);
                // The body's own first frame, if any, must not share this offset.
                super.visitInsn(Opcodes.NOP);
            }
        }

        /** The {@code Rt} method that says whether the hook runs. */
        private String test(Kind kind) {
            return switch (kind) {
                case ANY_DEPTH -> "recorded";
                case INSIDE_EVENT -> "insideEvent";
                case UNRECORDED -> "unrecorded";
                default -> "claim";
            };
        }

        /** Pushes the receiver, unless the hook takes none, and every argument; returns the slots they take. */
        private int loadArguments() {
            int slot = isStatic ? 0 : 1;
            if (!noReceiver) {
                super.visitVarInsn(Opcodes.ALOAD, 0);
            }
            for (Type t : Type.getArgumentTypes(hook.desc())) {
                super.visitVarInsn(t.getOpcode(Opcodes.ILOAD), slot);
                slot += t.getSize();
            }
            return slot;
        }
    }
}
