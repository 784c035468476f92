package dev.reprise.agent.instrument;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;

/**
 * Orders the monitors of the JDK's synchronized methods that the program calls: a
 * {@code StringBuffer}, {@code Vector}, {@code Hashtable} or {@code Properties} its threads share
 * ends up in the order of those calls. The JVM takes a synchronized method's monitor before any of
 * its bytecode runs, and such JDK classes are loaded before the agent, so the method itself
 * cannot take it as an ordered event ({@link MonitorRewriter} converts only classes it sees
 * first loaded). So each such call of a class on its first load becomes a call to a synthetic
 * static method of that class, one per method called, that takes the receiver's monitor in a
 * synchronized block around the call, which {@link MonitorRewriter} (nearer the writer) then
 * orders; the JDK method's own acquisition is then reentrant and uncontended, and its waits
 * still release the monitor.
 *
 * <p>Only calls the class file names on a JDK class are seen: a {@code Vector} reached through
 * {@code List} is not. Calls a hook intercepts ({@code Thread.join}, {@code hashCode}) are the
 * hook's, and a {@code Throwable}'s synchronized accessors are left: the program does not share
 * its exceptions between threads as it shares its buffers.
 */
final class SynchronizedCallRewriter extends ClassVisitor {
    private static final String PREFIX = "reprise$sync$";
    /** Whether {@code owner.name desc} resolves to a synchronized instance method of the JDK, by that key. */
    private static final Map<String, Boolean> RESOLVED = new ConcurrentHashMap<>();

    private final Catalogue catalogue;
    /** The synthetic methods to add: their names, by the called method's {@code owner.name desc}. */
    private final Map<String, String> wrappers = new LinkedHashMap<>();
    private String className;
    private boolean frames;
    private boolean skip;

    SynchronizedCallRewriter(ClassVisitor next, Catalogue catalogue) {
        super(Opcodes.ASM9, next);
        this.catalogue = catalogue;
    }

    @Override
    public void visit(int version, int access, String name, String signature, String superName, String[] interfaces) {
        className = name;
        frames = (version & 0xFFFF) >= Opcodes.V1_6;
        skip = (access & Opcodes.ACC_INTERFACE) != 0; // a private static method needs class files of Java 9
        super.visit(version, access, name, signature, superName, interfaces);
    }

    @Override
    public MethodVisitor visitMethod(int access, String name, String desc, String signature, String[] exceptions) {
        MethodVisitor mv = super.visitMethod(access, name, desc, signature, exceptions);
        return skip ? mv : new MethodVisitor(Opcodes.ASM9, mv) {
            @Override
            public void visitMethodInsn(int opcode, String owner, String method, String mdesc, boolean itf) {
                if (opcode != Opcodes.INVOKEVIRTUAL || itf || !isSynchronizedJdkMethod(owner, method, mdesc)) {
                    super.visitMethodInsn(opcode, owner, method, mdesc, itf);
                    return;
                }
                super.visitMethodInsn(Opcodes.INVOKESTATIC, className, wrapper(owner, method, mdesc),
                        wrapperDesc(owner, mdesc), false);
            }
        };
    }

    private String wrapper(String owner, String method, String desc) {
        String called = owner + '.' + method + desc; // no lambda: the transformer runs inside class loading
        String name = wrappers.get(called);
        if (name == null) {
            name = PREFIX + wrappers.size();
            wrappers.put(called, name);
        }
        return name;
    }

    private static String wrapperDesc(String owner, String desc) {
        return "(L" + owner + ";" + desc.substring(1);
    }

    private boolean isSynchronizedJdkMethod(String owner, String method, String desc) {
        if (owner.startsWith("[") || !Transformer.isJdkName(owner) || owner.startsWith("dev/reprise/")) {
            return false;
        }
        String key = owner + '.' + method + desc;
        Boolean known = RESOLVED.get(key);
        if (known == null) {
            known = resolvesSynchronized(owner, method + desc) && catalogue.reflectedHook(false, owner, method, desc) == null;
            RESOLVED.put(key, known);
        }
        return known;
    }

    /** Whether the method, found in {@code owner} or its nearest JDK superclass declaring it, is a synchronized instance method. */
    private static boolean resolvesSynchronized(String owner, String nameAndDesc) {
        for (String c = owner; c != null; ) {
            JdkSuperclasses.Declared d = JdkSuperclasses.of(c);
            Integer access = d.methods().get(nameAndDesc);
            if (access != null) {
                return (access & Opcodes.ACC_SYNCHRONIZED) != 0 && (access & Opcodes.ACC_STATIC) == 0
                        && !c.equals("java/lang/Throwable") && !c.startsWith("java/lang/Thread");
            }
            c = d.superName();
        }
        return false;
    }

    @Override
    public void visitEnd() {
        for (Map.Entry<String, String> w : wrappers.entrySet()) {
            String called = w.getKey();
            int paren = called.indexOf('(');
            int dot = called.lastIndexOf('.', paren);
            emit(w.getValue(), called.substring(0, dot), called.substring(dot + 1, paren), called.substring(paren));
        }
        super.visitEnd();
    }

    /**
     * {@code static R name(Owner r, A... a) { synchronized (r) { return r.method(a...); } }}, as
     * javac compiles it: the monitor held in a local from entry to every exit, and a handler
     * covering the call and itself.
     */
    private void emit(String name, String owner, String method, String desc) {
        String wrapperDesc = wrapperDesc(owner, desc);
        MethodVisitor mv = super.visitMethod(Opcodes.ACC_PRIVATE | Opcodes.ACC_STATIC | Opcodes.ACC_SYNTHETIC, name,
                wrapperDesc, null, null);
        Type[] params = Type.getArgumentTypes(wrapperDesc);
        Type result = Type.getReturnType(desc);
        int monitor = 0;
        List<Object> frameLocals = new ArrayList<>();
        for (Type p : params) {
            monitor += p.getSize();
            frameLocals.add(frameType(p));
        }
        int saved = monitor + 1;
        int thrown = saved + result.getSize();
        frameLocals.add(owner);
        Label start = new Label();
        Label end = new Label();
        Label handler = new Label();
        Label handlerEnd = new Label();
        mv.visitCode();
        mv.visitTryCatchBlock(start, end, handler, null);
        mv.visitTryCatchBlock(handler, handlerEnd, handler, null);
        mv.visitVarInsn(Opcodes.ALOAD, 0);
        mv.visitInsn(Opcodes.DUP);
        mv.visitVarInsn(Opcodes.ASTORE, monitor);
        mv.visitInsn(Opcodes.MONITORENTER);
        mv.visitLabel(start);
        int slot = 0;
        for (Type p : params) {
            mv.visitVarInsn(p.getOpcode(Opcodes.ILOAD), slot);
            slot += p.getSize();
        }
        mv.visitMethodInsn(Opcodes.INVOKEVIRTUAL, owner, method, desc, false);
        if (result.getSort() != Type.VOID) {
            mv.visitVarInsn(result.getOpcode(Opcodes.ISTORE), saved);
        }
        mv.visitVarInsn(Opcodes.ALOAD, monitor);
        mv.visitInsn(Opcodes.MONITOREXIT);
        mv.visitLabel(end);
        if (result.getSort() != Type.VOID) {
            mv.visitVarInsn(result.getOpcode(Opcodes.ILOAD), saved);
        }
        mv.visitInsn(result.getOpcode(Opcodes.IRETURN));
        mv.visitLabel(handler);
        if (frames) {
            mv.visitFrame(Opcodes.F_FULL, frameLocals.size(), frameLocals.toArray(), 1, new Object[] {"java/lang/Throwable"});
        }
        mv.visitVarInsn(Opcodes.ASTORE, thrown);
        mv.visitVarInsn(Opcodes.ALOAD, monitor);
        mv.visitInsn(Opcodes.MONITOREXIT);
        mv.visitLabel(handlerEnd);
        mv.visitVarInsn(Opcodes.ALOAD, thrown);
        mv.visitInsn(Opcodes.ATHROW);
        mv.visitMaxs(Math.max(slot, 2), thrown + 1); // the arguments, or the monitor twice; a result replaces them
        mv.visitEnd();
    }

    private static Object frameType(Type t) {
        switch (t.getSort()) {
            case Type.BOOLEAN, Type.BYTE, Type.CHAR, Type.SHORT, Type.INT:
                return Opcodes.INTEGER;
            case Type.LONG:
                return Opcodes.LONG;
            case Type.FLOAT:
                return Opcodes.FLOAT;
            case Type.DOUBLE:
                return Opcodes.DOUBLE;
            default:
                return t.getSort() == Type.ARRAY ? t.getDescriptor() : t.getInternalName();
        }
    }
}
