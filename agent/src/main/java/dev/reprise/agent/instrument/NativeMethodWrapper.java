package dev.reprise.agent.instrument;

import java.util.ArrayList;
import java.util.List;

import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;

import dev.reprise.agent.ops.classes.NativeCalls;
import dev.reprise.agent.runtime.events.Sites;

/**
 * Renames each native method of an application class with {@link #PREFIX}, and adds in its
 * place a Java method of its name that calls it through {@link NativeCalls}: the JVM binds the
 * renamed method to the library's function by the original name, since start-up registers the
 * prefix ({@code Instrumentation.setNativeMethodPrefix}). The wrapper calls straight through
 * until the program loads a library that reaches the system, then asks {@link NativeCalls#claim}
 * which way to go, and boxes its arguments only for a call that is an event:
 *
 * <pre>
 * int mode = NativeCalls.claim("owner.name(desc)");
 * if (mode == LIVE) return prefixed(a, b);
 * if (mode == SKIP) return zero;
 * Object[] args = {a, b};
 * if (NativeCalls.begin(site, this, args) == REPLAY) return unbox(NativeCalls.replayed(this, args, key));
 * try { r = prefixed(a, b); } catch (Throwable t) { throw NativeCalls.threw(t, key); }
 * return unbox(NativeCalls.returned(box(r), this, args));
 * </pre>
 */
final class NativeMethodWrapper extends ClassVisitor {
    /** What a wrapped native method's name starts with. */
    static final String PREFIX = "reprise$native$";
    private static final String HOOK = Type.getInternalName(NativeCalls.class);
    private String owner;
    private int version;

    NativeMethodWrapper(ClassVisitor next) {
        super(Opcodes.ASM9, next);
    }

    @Override
    public void visit(int version, int access, String name, String signature, String superName, String[] interfaces) {
        this.owner = name;
        this.version = version & 0xFFFF;
        super.visit(version, access, name, signature, superName, interfaces);
    }

    @Override
    public MethodVisitor visitMethod(int access, String name, String desc, String signature, String[] exceptions) {
        if ((access & Opcodes.ACC_NATIVE) == 0 || version < Opcodes.V1_5) {
            return super.visitMethod(access, name, desc, signature, exceptions);
        }
        boolean statik = (access & Opcodes.ACC_STATIC) != 0;
        MethodVisitor renamed = super.visitMethod(Opcodes.ACC_PRIVATE | Opcodes.ACC_NATIVE | Opcodes.ACC_SYNTHETIC
                | (access & Opcodes.ACC_STATIC), PREFIX + name, desc, null, exceptions);
        if (renamed != null) {
            renamed.visitEnd();
        }
        MethodVisitor wrapper = super.visitMethod(access & ~Opcodes.ACC_NATIVE, name, desc, signature, exceptions);
        if (wrapper == null) {
            return null;
        }
        // The native method's annotations and parameters go to the wrapper, which reflection finds by its name.
        return new MethodVisitor(Opcodes.ASM9, wrapper) {
            @Override
            public void visitEnd() {
                writeBody(mv, statik, name, desc);
                super.visitEnd();
            }
        };
    }

    private void writeBody(MethodVisitor mv, boolean statik, String name, String desc) {
        Type[] args = Type.getArgumentTypes(desc);
        Type ret = Type.getReturnType(desc);
        int argSlots = statik ? 0 : 1;
        for (Type t : args) {
            argSlots += t.getSize();
        }
        int mode = argSlots;
        int array = argSlots + 1;
        // One constant names the method to every hook: no string is built per call.
        String key = NativeCalls.key(owner, name, desc);
        boolean frames = version >= Opcodes.V1_6;
        Object[] argFrame = frameLocals(statik, args, 0);
        Object[] claimedFrame = frameLocals(statik, args, 1);
        Object[] fullFrame = frameLocals(statik, args, 2);
        Label live = new Label();
        Label claimed = new Label();
        Label record = new Label();
        Label tryStart = new Label();
        Label tryEnd = new Label();
        Label handler = new Label();
        mv.visitCode();
        mv.visitTryCatchBlock(tryStart, tryEnd, handler, "java/lang/Throwable");
        mv.visitMethodInsn(Opcodes.INVOKESTATIC, HOOK, "any", "()Z", false);
        mv.visitJumpInsn(Opcodes.IFEQ, live);
        mv.visitLdcInsn(key);
        mv.visitMethodInsn(Opcodes.INVOKESTATIC, HOOK, "claim", "(Ljava/lang/String;)I", false);
        mv.visitVarInsn(Opcodes.ISTORE, mode);
        mv.visitVarInsn(Opcodes.ILOAD, mode);
        mv.visitJumpInsn(Opcodes.IFEQ, live);
        mv.visitVarInsn(Opcodes.ILOAD, mode);
        pushInt(mv, NativeCalls.SKIP);
        mv.visitJumpInsn(Opcodes.IF_ICMPNE, claimed);
        // A replay's call that is no event: zero or null, the library not run.
        mv.visitInsn(Opcodes.ACONST_NULL);
        unboxAndReturn(mv, ret);
        // Claimed: the arguments boxed, the event begun.
        mv.visitLabel(claimed);
        if (frames) {
            mv.visitFrame(Opcodes.F_NEW, claimedFrame.length, claimedFrame, 0, new Object[0]);
        }
        pushInt(mv, args.length);
        mv.visitTypeInsn(Opcodes.ANEWARRAY, "java/lang/Object");
        int slot = statik ? 0 : 1;
        for (int i = 0; i < args.length; i++) {
            mv.visitInsn(Opcodes.DUP);
            pushInt(mv, i);
            mv.visitVarInsn(args[i].getOpcode(Opcodes.ILOAD), slot);
            box(mv, args[i]);
            mv.visitInsn(Opcodes.AASTORE);
            slot += args[i].getSize();
        }
        mv.visitVarInsn(Opcodes.ASTORE, array);
        mv.visitIntInsn(Opcodes.SIPUSH, Sites.register(owner, name, -1));
        loadSelf(mv, statik);
        mv.visitVarInsn(Opcodes.ALOAD, array);
        mv.visitMethodInsn(Opcodes.INVOKESTATIC, HOOK, "begin", "(ILjava/lang/Object;[Ljava/lang/Object;)I", false);
        pushInt(mv, NativeCalls.RECORD);
        mv.visitJumpInsn(Opcodes.IF_ICMPEQ, record);
        // Replay: the recording's result.
        loadSelf(mv, statik);
        mv.visitVarInsn(Opcodes.ALOAD, array);
        mv.visitLdcInsn(key);
        mv.visitMethodInsn(Opcodes.INVOKESTATIC, HOOK, "replayed",
                "(Ljava/lang/Object;[Ljava/lang/Object;Ljava/lang/String;)Ljava/lang/Object;", false);
        unboxAndReturn(mv, ret);
        // Record: the call, its result or exception logged.
        mv.visitLabel(record);
        if (frames) {
            mv.visitFrame(Opcodes.F_NEW, fullFrame.length, fullFrame, 0, new Object[0]);
        }
        mv.visitLabel(tryStart);
        callNative(mv, statik, name, desc, args);
        mv.visitLabel(tryEnd);
        if (ret.getSort() == Type.VOID) {
            mv.visitInsn(Opcodes.ACONST_NULL);
        } else {
            box(mv, ret);
        }
        loadSelf(mv, statik);
        mv.visitVarInsn(Opcodes.ALOAD, array);
        mv.visitMethodInsn(Opcodes.INVOKESTATIC, HOOK, "returned",
                "(Ljava/lang/Object;Ljava/lang/Object;[Ljava/lang/Object;)Ljava/lang/Object;", false);
        unboxAndReturn(mv, ret);
        mv.visitLabel(handler);
        if (frames) {
            mv.visitFrame(Opcodes.F_NEW, fullFrame.length, fullFrame, 1, new Object[] {"java/lang/Throwable"});
        }
        mv.visitLdcInsn(key);
        mv.visitMethodInsn(Opcodes.INVOKESTATIC, HOOK, "threw", "(Ljava/lang/Throwable;Ljava/lang/String;)Ljava/lang/Throwable;", false);
        mv.visitInsn(Opcodes.ATHROW);
        // Live: straight through.
        mv.visitLabel(live);
        if (frames) {
            mv.visitFrame(Opcodes.F_NEW, argFrame.length, argFrame, 0, new Object[0]);
        }
        callNative(mv, statik, name, desc, args);
        mv.visitInsn(ret.getOpcode(Opcodes.IRETURN));
        // Boxing a long into the array: array, array, index, value (two slots).
        mv.visitMaxs(Math.max(argSlots, 6) + 2, argSlots + 2);
    }

    private void callNative(MethodVisitor mv, boolean statik, String name, String desc, Type[] args) {
        int slot = 0;
        if (!statik) {
            mv.visitVarInsn(Opcodes.ALOAD, 0);
            slot = 1;
        }
        for (Type t : args) {
            mv.visitVarInsn(t.getOpcode(Opcodes.ILOAD), slot);
            slot += t.getSize();
        }
        mv.visitMethodInsn(statik ? Opcodes.INVOKESTATIC : Opcodes.INVOKESPECIAL, owner, PREFIX + name, desc, false);
    }

    private static void loadSelf(MethodVisitor mv, boolean statik) {
        if (statik) {
            mv.visitInsn(Opcodes.ACONST_NULL);
        } else {
            mv.visitVarInsn(Opcodes.ALOAD, 0);
        }
    }

    /** The arguments' types in a frame, then {@code ours} of the wrapper's locals: the mode, then the array. */
    private Object[] frameLocals(boolean statik, Type[] args, int ours) {
        List<Object> locals = new ArrayList<>();
        if (!statik) {
            locals.add(owner);
        }
        for (Type t : args) {
            locals.add(switch (t.getSort()) {
                case Type.BOOLEAN, Type.BYTE, Type.CHAR, Type.SHORT, Type.INT -> Opcodes.INTEGER;
                case Type.FLOAT -> Opcodes.FLOAT;
                case Type.LONG -> Opcodes.LONG;
                case Type.DOUBLE -> Opcodes.DOUBLE;
                case Type.ARRAY -> t.getDescriptor();
                default -> t.getInternalName();
            });
        }
        if (ours > 0) {
            locals.add(Opcodes.INTEGER);
        }
        if (ours > 1) {
            locals.add("[Ljava/lang/Object;");
        }
        return locals.toArray();
    }

    private static void pushInt(MethodVisitor mv, int n) {
        if (n <= 5) {
            mv.visitInsn(Opcodes.ICONST_0 + n);
        } else {
            mv.visitIntInsn(n <= Byte.MAX_VALUE ? Opcodes.BIPUSH : Opcodes.SIPUSH, n);
        }
    }

    private static void box(MethodVisitor mv, Type t) {
        String boxed = switch (t.getSort()) {
            case Type.BOOLEAN -> "java/lang/Boolean";
            case Type.BYTE -> "java/lang/Byte";
            case Type.CHAR -> "java/lang/Character";
            case Type.SHORT -> "java/lang/Short";
            case Type.INT -> "java/lang/Integer";
            case Type.FLOAT -> "java/lang/Float";
            case Type.LONG -> "java/lang/Long";
            case Type.DOUBLE -> "java/lang/Double";
            default -> null;
        };
        if (boxed != null) {
            mv.visitMethodInsn(Opcodes.INVOKESTATIC, boxed, "valueOf", "(" + t.getDescriptor() + ")L" + boxed + ";", false);
        }
    }

    private static void unboxAndReturn(MethodVisitor mv, Type t) {
        switch (t.getSort()) {
            case Type.VOID -> {
                mv.visitInsn(Opcodes.POP);
                mv.visitInsn(Opcodes.RETURN);
                return;
            }
            case Type.BOOLEAN, Type.BYTE, Type.CHAR, Type.SHORT, Type.INT ->
                    mv.visitMethodInsn(Opcodes.INVOKESTATIC, HOOK, "asInt", "(Ljava/lang/Object;)I", false);
            case Type.LONG -> mv.visitMethodInsn(Opcodes.INVOKESTATIC, HOOK, "asLong", "(Ljava/lang/Object;)J", false);
            case Type.FLOAT -> mv.visitMethodInsn(Opcodes.INVOKESTATIC, HOOK, "asFloat", "(Ljava/lang/Object;)F", false);
            case Type.DOUBLE -> mv.visitMethodInsn(Opcodes.INVOKESTATIC, HOOK, "asDouble", "(Ljava/lang/Object;)D", false);
            default -> mv.visitTypeInsn(Opcodes.CHECKCAST, t.getSort() == Type.ARRAY ? t.getDescriptor() : t.getInternalName());
        }
        mv.visitInsn(t.getOpcode(Opcodes.IRETURN));
    }
}
