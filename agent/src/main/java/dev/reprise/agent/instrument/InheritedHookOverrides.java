package dev.reprise.agent.instrument;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;

import dev.reprise.agent.runtime.events.Rt;
import dev.reprise.agent.runtime.events.Sites;

/**
 * Gives an application class that extends a JDK class an override of each method its JDK
 * superclasses declare and an {@link dev.reprise.agent.ops.CallSite#inherited} hook intercepts
 * ({@code RandomAccessFile.length}), unless the class declares the method itself. A call through the program's own interface or
 * subclass type ({@code invokeinterface Storage.length}) names no JDK class, so
 * {@link CallSiteRewriter} leaves it; the override makes every such call reach the hook:
 *
 * <pre>{@code
 * public long length() {
 *     if (Rt.claimable()) return RandomAccessFileOps.length(this, site);
 *     return super.length();
 * }
 * }</pre>
 *
 * A call not to be an event (an unrecorded thread, the JDK's work inside another event) takes
 * the JDK's method, as does the hook's own virtual call when it cannot claim; a hook that claims
 * runs the JDK's method non-virtually, so a program's override below this one, which reaches the
 * hook through its {@code super} call, runs once. Application subclasses inherit the override,
 * which depends on this class's bytes and the JDK's alone (what the class cache keys entries by).
 */
final class InheritedHookOverrides extends ClassVisitor {
    private static final String RT = Type.getInternalName(Rt.class);

    private final Catalogue catalogue;
    private final Set<String> declared = new HashSet<>();
    private String className;
    private String superName;
    private boolean frames;

    InheritedHookOverrides(ClassVisitor next, Catalogue catalogue) {
        super(Opcodes.ASM9, next);
        this.catalogue = catalogue;
    }

    @Override
    public void visit(int version, int access, String name, String signature, String superName, String[] interfaces) {
        this.className = name;
        this.superName = (access & Opcodes.ACC_INTERFACE) == 0 && superName != null && Transformer.isJdkName(superName)
                ? superName : null;
        this.frames = (version & 0xFFFF) >= Opcodes.V1_6;
        super.visit(version, access, name, signature, superName, interfaces);
    }

    @Override
    public MethodVisitor visitMethod(int access, String name, String desc, String signature, String[] exceptions) {
        declared.add(name + desc);
        return super.visitMethod(access, name, desc, signature, exceptions);
    }

    @Override
    public void visitEnd() {
        if (superName != null) {
            for (Inherited m : inheritedHooks()) {
                override(m);
            }
        }
        super.visitEnd();
    }

    /** A hooked JDK method the class inherits, with its access flags. */
    private record Inherited(Catalogue.SiteHook hook, int access) {
    }

    /**
     * For each hooked method the class inherits: the hook of the JDK class nearest above it that
     * declares the method, if that declaration can be overridden from another package.
     */
    private List<Inherited> inheritedHooks() {
        List<Inherited> found = new ArrayList<>();
        Set<String> settled = new HashSet<>(declared);
        for (String c = superName; c != null; ) {
            JdkSuperclasses.Declared jdk = JdkSuperclasses.of(c);
            for (String method : jdk.methods().keySet()) {
                if (!settled.add(method)) {
                    continue;
                }
                int access = jdk.methods().get(method);
                Catalogue.SiteHook h = hookOf(c, method);
                if (h != null && overridable(access)) {
                    found.add(new Inherited(h, access));
                }
            }
            c = jdk.superName();
        }
        return found;
    }

    private Catalogue.SiteHook hookOf(String owner, String method) {
        for (Catalogue.SiteHook h : catalogue.inheritedHooksOf(owner)) {
            if (method.equals(h.method() + h.desc())) {
                return h;
            }
        }
        return null;
    }

    private static boolean overridable(int access) {
        return (access & (Opcodes.ACC_PUBLIC | Opcodes.ACC_PROTECTED)) != 0
                && (access & (Opcodes.ACC_FINAL | Opcodes.ACC_STATIC | Opcodes.ACC_PRIVATE)) == 0;
    }

    private void override(Inherited m) {
        Catalogue.SiteHook h = m.hook();
        int access = m.access() & (Opcodes.ACC_PUBLIC | Opcodes.ACC_PROTECTED) | Opcodes.ACC_SYNTHETIC;
        MethodVisitor mv = super.visitMethod(access, h.method(), h.desc(), null, null);
        Type type = Type.getMethodType(h.desc());
        int slots = Type.getArgumentsAndReturnSizes(h.desc()) >> 2; // the arguments and this
        boolean site = CallSiteRewriter.takesSite(h, h.desc(), Opcodes.INVOKEVIRTUAL);
        Label jdk = new Label();
        mv.visitCode();
        mv.visitMethodInsn(Opcodes.INVOKESTATIC, RT, "claimable", "()Z", false);
        mv.visitJumpInsn(Opcodes.IFEQ, jdk);
        loadArguments(mv, type);
        if (site) {
            mv.visitIntInsn(Opcodes.SIPUSH, Sites.register(className, h.method(), 0));
        }
        mv.visitMethodInsn(Opcodes.INVOKESTATIC, h.hookOwner(), h.hookName(), h.hookDesc(), false);
        mv.visitInsn(type.getReturnType().getOpcode(Opcodes.IRETURN));
        mv.visitLabel(jdk);
        if (frames) {
            mv.visitFrame(Opcodes.F_SAME, 0, null, 0, null);
        }
        loadArguments(mv, type);
        mv.visitMethodInsn(Opcodes.INVOKESPECIAL, superName, h.method(), h.desc(), false);
        mv.visitInsn(type.getReturnType().getOpcode(Opcodes.IRETURN));
        mv.visitMaxs(slots + (site ? 1 : 0), slots);
        mv.visitEnd();
    }

    private static void loadArguments(MethodVisitor mv, Type method) {
        mv.visitVarInsn(Opcodes.ALOAD, 0);
        int slot = 1;
        for (Type t : method.getArgumentTypes()) {
            mv.visitVarInsn(t.getOpcode(Opcodes.ILOAD), slot);
            slot += t.getSize();
        }
    }
}
