package dev.reprise.agent.instrument;

import java.util.List;

import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;

import dev.reprise.agent.ops.CallSite;
import dev.reprise.agent.ops.environment.HashOps;
import dev.reprise.agent.runtime.events.Sites;

/**
 * Replaces calls to catalogued natives and intrinsics, and reads of catalogued static fields, by
 * calls to their static hooks. The stack effect is the same (the receiver becomes the hook's first
 * argument), so no frame changes.
 * Hooks that take a call site id get it as a trailing {@code int} pushed before the call.
 *
 * <p>A {@code hashCode()} call whose receiver's class, or a superclass of it, declares its own
 * keeps its call: it never reaches the identity hash that {@link HashOps#hashCode} makes
 * deterministic, and left alone the JIT inlines the receiver's {@code hashCode} at the site. But
 * {@code MethodType}'s hashes its classes' identity hashes, which the hook recomputes.
 */
final class CallSiteRewriter extends ClassVisitor {
    private static final String HASH_OPS = Type.getInternalName(HashOps.class);
    private static final String METHOD_TYPE = "java/lang/invoke/MethodType";

    private final Catalogue catalogue;
    /** An application class: {@link CallSite#programOnly()} hooks apply too. */
    private final boolean application;
    /** Answers which class's {@code hashCode} a call reaches. */
    private final VolatileFields.Lookup declared;
    private String className;
    /** Whether every hook applies here, not only those whose packages hold the class. */
    private boolean allHooks;

    CallSiteRewriter(ClassVisitor next, Catalogue catalogue, boolean application, VolatileFields.Lookup declared) {
        super(Opcodes.ASM9, next);
        this.catalogue = catalogue;
        this.application = application;
        this.declared = declared;
    }

    @Override
    public void visit(int version, int access, String name, String signature, String superName, String[] interfaces) {
        this.className = name;
        this.allHooks = application || catalogue.rewritesAllSitesIn(name);
        super.visit(version, access, name, signature, superName, interfaces);
    }

    @Override
    public MethodVisitor visitMethod(int access, String name, String desc, String signature, String[] exceptions) {
        return new Rewriter(super.visitMethod(access, name, desc, signature, exceptions), name);
    }

    private final class Rewriter extends MethodVisitor {
        private final String method;
        private int line;
        /** Whether a site id was pushed: only then does the method need a stack word more. */
        private boolean pushedSite;

        Rewriter(MethodVisitor mv, String method) {
            super(Opcodes.ASM9, mv);
            this.method = method;
        }

        @Override
        public void visitLineNumber(int line, Label start) {
            this.line = line;
            super.visitLineNumber(line, start);
        }

        @Override
        public void visitMethodInsn(int opcode, String owner, String name, String desc, boolean itf) {
            Catalogue.SiteHook h = match(opcode, owner, name, desc);
            if (h == null) {
                super.visitMethodInsn(opcode, owner, name, desc, itf);
                return;
            }
            if (takesSite(h, desc, opcode)) {
                super.visitIntInsn(Opcodes.SIPUSH, Sites.register(className, method, line));
                pushedSite = true;
            }
            super.visitMethodInsn(Opcodes.INVOKESTATIC, h.hookOwner(), h.hookName(), h.hookDesc(), false);
            // A hook typed with a supertype for a type it cannot name (a JDK class's package-private
            // one) returns what the call's caller expects all the same: the cast says so.
            Type returned = Type.getReturnType(desc);
            if (returned.getSort() >= Type.ARRAY && !returned.equals(Type.getReturnType(h.hookDesc()))) {
                super.visitTypeInsn(Opcodes.CHECKCAST, returned.getInternalName());
            }
        }

        @Override
        public void visitFieldInsn(int opcode, String owner, String name, String desc) {
            Catalogue.SiteHook h = match(opcode, owner, name, desc);
            if (h == null) {
                super.visitFieldInsn(opcode, owner, name, desc);
                return;
            }
            super.visitMethodInsn(Opcodes.INVOKESTATIC, h.hookOwner(), h.hookName(), h.hookDesc(), false);
        }

        /** A hook that takes a site id has it pushed on top of the call's arguments. */
        @Override
        public void visitMaxs(int maxStack, int maxLocals) {
            super.visitMaxs(pushedSite ? maxStack + 1 : maxStack, maxLocals);
        }

        private Catalogue.SiteHook match(int opcode, String owner, String name, String desc) {
            Catalogue.SiteHook h = match(opcode, owner, owner, name, desc);
            if (h == null && inherits(opcode, owner, name)) {
                // A call naming the program's subclass of a hooked JDK class (a WeakReference's
                // get, a ReferenceQueue's poll, a Thread subclass's sleep): the JDK method it
                // inherits, from the nearest JDK class up.
                String ancestor = declared.jdkAncestor(owner);
                for (String c = ancestor; h == null && c != null && !c.equals("java/lang/Object"); c = JdkSuperclasses.of(c).superName()) {
                    h = match(opcode, owner, c, name, desc);
                }
            }
            return h;
        }

        /**
         * Whether a call naming {@code owner} may reach an inherited JDK method a hook names by its
         * class. A JDK class naming another JDK class reaches the hooked method directly but in the
         * code the program runs as its own ({@code WeakHashMap} reading its entries, a subclass of
         * {@code WeakReference}).
         */
        private boolean inherits(int opcode, String owner, String name) {
            if (opcode != Opcodes.INVOKEVIRTUAL && opcode != Opcodes.INVOKESTATIC || owner.startsWith("[")
                    || Transformer.isJdkName(owner) && !(application && Transformer.isJdkName(className))) {
                return false;
            }
            for (Catalogue.SiteHook h : catalogue.siteHooks(name)) {
                if (!h.owner().equals("*")) {
                    return true;
                }
            }
            return false;
        }

        /** The hook for a call naming {@code owner}, matched as if it named {@code as}. */
        private Catalogue.SiteHook match(int opcode, String owner, String as, String name, String desc) {
            for (Catalogue.SiteHook h : catalogue.siteHooks(name)) {
                if (!h.desc().equals(desc) || h.programOnly() && !application || !allHooks && !h.appliesIn(className)) {
                    continue;
                }
                boolean ownerOk = h.owner().equals("*") || h.owner().equals(as);
                boolean kindOk = switch (h.kind()) {
                    case STATIC -> opcode == Opcodes.INVOKESTATIC;
                    case VIRTUAL -> opcode == Opcodes.INVOKEVIRTUAL || opcode == Opcodes.INVOKEINTERFACE;
                    case SPECIAL -> opcode == Opcodes.INVOKESPECIAL;
                    case GETSTATIC -> opcode == Opcodes.GETSTATIC;
                };
                if (ownerOk && kindOk) {
                    return ownHashCode(h, opcode, owner) ? null : h;
                }
            }
            return null;
        }
    }

    /** Whether {@code h} is the identity-hash hook and the call reaches a {@code hashCode} of the receiver's class's own. */
    private boolean ownHashCode(Catalogue.SiteHook h, int opcode, String owner) {
        if (opcode != Opcodes.INVOKEVIRTUAL || !h.hookOwner().equals(HASH_OPS) || !h.method().equals("hashCode")) {
            return false;
        }
        String declarer = declared.hashCodeDeclarer(owner);
        return declarer != null && !declarer.equals(METHOD_TYPE);
    }

    /** A hook takes a site id when it has one more parameter than the call passes. */
    static boolean takesSite(Catalogue.SiteHook h, String desc, int opcode) {
        int passed = Type.getArgumentTypes(desc).length + (opcode == Opcodes.INVOKESTATIC ? 0 : 1);
        return Type.getArgumentTypes(h.hookDesc()).length == passed + 1;
    }
}
