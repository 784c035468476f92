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
 * <p>A call through a JDK interface ({@code List.add}, {@code Map.merge}, {@code Appendable.append})
 * that one of the JDK's synchronized classes runs as a synchronized method takes the monitor
 * only when the receiver is of exactly such a class, which its synthetic method tests
 * ({@code getClass() ==}, a compare the compilers fold into their type profile): a
 * {@code Vector} reached through {@code List}, a {@code Hashtable} through {@code Map}. A
 * program's own subclass of one of them, reached through an interface, is not. Calls a hook
 * intercepts ({@code Thread.join}, {@code hashCode}) are the hook's, and a {@code Throwable}'s
 * synchronized accessors are left: the program does not share its exceptions between threads as
 * it shares its buffers.
 */
final class SynchronizedCallRewriter extends ClassVisitor {
    private static final String PREFIX = "reprise$sync$";
    /** Whether {@code owner.name desc} resolves to a synchronized instance method of the JDK, by that key. */
    private static final Map<String, Boolean> RESOLVED = new ConcurrentHashMap<>();
    /** The JDK's classes with synchronized methods that programs share and reach through interfaces. */
    private static final List<String> SYNCHRONIZED_CLASSES = List.of("java/util/Vector", "java/util/Stack",
            "java/util/Hashtable", "java/util/Properties", "java/lang/StringBuffer");
    /** Which of them run interface method {@code owner.name desc} synchronized, by that key; none for most. */
    private static final Map<String, List<String>> IMPLEMENTED = new ConcurrentHashMap<>();

    private final Catalogue catalogue;
    /** The synthetic methods to add: their names, by the called method's {@code owner.name desc}. */
    private final Map<String, String> wrappers = new LinkedHashMap<>();
    /** For a wrapper of an interface call, by the same key: the receiver classes it synchronizes. */
    private final Map<String, List<String>> guards = new LinkedHashMap<>();
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
        // A wrapper compares the receiver's class with the JDK's synchronized ones, loaded by ldc.
        super.visit(ClassVersions.allowingClassConstants(version), access, name, signature, superName, interfaces);
    }

    @Override
    public MethodVisitor visitMethod(int access, String name, String desc, String signature, String[] exceptions) {
        MethodVisitor mv = super.visitMethod(access, name, desc, signature, exceptions);
        return skip ? mv : new MethodVisitor(Opcodes.ASM9, mv) {
            @Override
            public void visitMethodInsn(int opcode, String owner, String method, String mdesc, boolean itf) {
                List<String> classes = opcode == Opcodes.INVOKEINTERFACE ? synchronizedImplementations(owner, method, mdesc) : null;
                if (classes != null && !classes.isEmpty()
                        || opcode == Opcodes.INVOKEVIRTUAL && !itf && isSynchronizedJdkMethod(owner, method, mdesc)) {
                    super.visitMethodInsn(Opcodes.INVOKESTATIC, className, wrapper(owner, method, mdesc, classes),
                            wrapperDesc(owner, mdesc), false);
                    return;
                }
                super.visitMethodInsn(opcode, owner, method, mdesc, itf);
            }
        };
    }

    /** The wrapper's name; {@code classes}, for an interface call, the receivers it synchronizes. */
    private String wrapper(String owner, String method, String desc, List<String> classes) {
        String called = owner + '.' + method + desc; // no lambda: the transformer runs inside class loading
        String name = wrappers.get(called);
        if (name == null) {
            name = PREFIX + wrappers.size();
            wrappers.put(called, name);
            if (classes != null) {
                guards.put(called, classes);
            }
        }
        return name;
    }

    /** Which of {@link #SYNCHRONIZED_CLASSES} run JDK interface method {@code owner.method desc} as a synchronized method. */
    private List<String> synchronizedImplementations(String owner, String method, String desc) {
        if (!Transformer.isJdkName(owner) || owner.startsWith("dev/reprise/")) {
            return null;
        }
        String key = owner + '.' + method + desc;
        List<String> known = IMPLEMENTED.get(key);
        if (known == null) {
            List<String> found = new ArrayList<>();
            for (String c : SYNCHRONIZED_CLASSES) {
                if (JdkSuperclasses.isA(c, owner) && resolvesSynchronized(c, method + desc)
                        && catalogue.reflectedHook(false, c, method, desc) == null) {
                    found.add(c);
                }
            }
            known = List.copyOf(found);
            IMPLEMENTED.put(key, known);
        }
        return known;
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

    /**
     * Whether the method, found in {@code owner} or its nearest JDK superclass declaring it, is a
     * synchronized instance method, or a bridge to one ({@code StringBuffer.append(C)} returning
     * {@code Appendable}, which calls the synchronized one returning {@code StringBuffer}).
     */
    private static boolean resolvesSynchronized(String owner, String nameAndDesc) {
        for (String c = owner; c != null; ) {
            JdkSuperclasses.Declared d = JdkSuperclasses.of(c);
            Integer access = d.methods().get(nameAndDesc);
            if (access != null) {
                if (c.equals("java/lang/Throwable") || c.startsWith("java/lang/Thread") || (access & Opcodes.ACC_STATIC) != 0) {
                    return false;
                }
                return (access & Opcodes.ACC_SYNCHRONIZED) != 0 || (access & Opcodes.ACC_BRIDGE) != 0 && bridgesSynchronized(d, nameAndDesc);
            }
            c = d.superName();
        }
        return false;
    }

    /** Whether {@code d} declares a synchronized method of the bridge's name and parameters (another return type). */
    private static boolean bridgesSynchronized(JdkSuperclasses.Declared d, String bridge) {
        String parameters = bridge.substring(0, bridge.indexOf(')') + 1);
        for (Map.Entry<String, Integer> m : d.methods().entrySet()) {
            int access = m.getValue();
            if (m.getKey().startsWith(parameters) && (access & Opcodes.ACC_BRIDGE) == 0 && (access & Opcodes.ACC_SYNCHRONIZED) != 0) {
                return true;
            }
        }
        return false;
    }

    @Override
    public void visitEnd() {
        for (Map.Entry<String, String> w : wrappers.entrySet()) {
            String called = w.getKey();
            int paren = called.indexOf('(');
            int dot = called.lastIndexOf('.', paren);
            emit(w.getValue(), called.substring(0, dot), called.substring(dot + 1, paren), called.substring(paren),
                    guards.get(called));
        }
        super.visitEnd();
    }

    /**
     * {@code static R name(Owner r, A... a) { synchronized (r) { return r.method(a...); } }}, as
     * javac compiles it: the monitor held in a local from entry to every exit, and a handler
     * covering the call and itself. With {@code classes} (an interface call), the block only for
     * a receiver of one of them, {@code return r.method(a...)} for any other.
     */
    private void emit(String name, String owner, String method, String desc, List<String> classes) {
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
        boolean itf = classes != null;
        mv.visitCode();
        mv.visitTryCatchBlock(start, end, handler, null);
        mv.visitTryCatchBlock(handler, handlerEnd, handler, null);
        if (itf) {
            Label locked = new Label();
            for (String c : classes) {
                mv.visitVarInsn(Opcodes.ALOAD, 0);
                mv.visitMethodInsn(Opcodes.INVOKEVIRTUAL, "java/lang/Object", "getClass", "()Ljava/lang/Class;", false);
                mv.visitLdcInsn(Type.getObjectType(c));
                mv.visitJumpInsn(Opcodes.IF_ACMPEQ, locked);
            }
            loadArguments(mv, params);
            mv.visitMethodInsn(Opcodes.INVOKEINTERFACE, owner, method, desc, true);
            mv.visitInsn(result.getOpcode(Opcodes.IRETURN));
            mv.visitLabel(locked);
            if (frames) {
                mv.visitFrame(Opcodes.F_FULL, params.length, frameLocals.subList(0, params.length).toArray(), 0, new Object[0]);
            }
        }
        mv.visitVarInsn(Opcodes.ALOAD, 0);
        mv.visitInsn(Opcodes.DUP);
        mv.visitVarInsn(Opcodes.ASTORE, monitor);
        mv.visitInsn(Opcodes.MONITORENTER);
        mv.visitLabel(start);
        int slot = loadArguments(mv, params);
        mv.visitMethodInsn(itf ? Opcodes.INVOKEINTERFACE : Opcodes.INVOKEVIRTUAL, owner, method, desc, itf);
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

    /** Loads the wrapper's parameters, receiver first; the words they take. */
    private static int loadArguments(MethodVisitor mv, Type[] params) {
        int slot = 0;
        for (Type p : params) {
            mv.visitVarInsn(p.getOpcode(Opcodes.ILOAD), slot);
            slot += p.getSize();
        }
        return slot;
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
