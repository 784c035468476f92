package dev.reprise.agent.instrument;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;
import java.util.stream.Stream;

import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.FieldVisitor;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.AnnotationNode;
import org.objectweb.asm.tree.MethodNode;

/**
 * Build time: gives each {@link dev.reprise.agent.ops.Claimed} method of the hook classes its
 * claim and its tail. The method's body moves to a private {@code name$event}, and a method of
 * the original name, annotations and descriptor takes its place:
 * <pre>
 * if (!Rt.claim()) return (R) LIVE.invokeExact(args...);   // less a site, if it takes one
 * try { R r = name$event(args...); Rt.ended(); return r; }
 * catch (Throwable t) { throw Rt.failed(t); }
 * </pre>
 * A call-site hook replaces a call inside the caller's code, where no prologue runs and a JDK
 * class being redefined can gain no member; its own class is the one place to write the tail.
 * The {@code Claimed} annotation does not survive the rewrite, so running the build twice over
 * the same class files changes nothing the second time.
 */
public final class ClaimedTails extends ClassVisitor {
    private static final String CLAIMED = "Ldev/reprise/agent/ops/Claimed;";
    private static final String HANDLE = "Ljava/lang/invoke/MethodHandle;";
    private static final String BODY_SUFFIX = "$event";

    private final Set<String> handleFields = new HashSet<>();
    private String owner;
    private boolean changed;

    ClaimedTails(ClassVisitor next) {
        super(Opcodes.ASM9, next);
    }

    /** Rewrites every class file under {@code args[0]}'s {@code dev/reprise/agent/ops} that has a claimed method. */
    public static void main(String[] args) throws IOException {
        try (Stream<Path> files = Files.walk(Path.of(args[0], "dev", "reprise", "agent", "ops"))) {
            for (Path file : (Iterable<Path>) files.filter(f -> f.toString().endsWith(".class"))::iterator) {
                byte[] rewritten = rewrite(Files.readAllBytes(file));
                if (rewritten != null) {
                    Files.write(file, rewritten);
                }
            }
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }

    /** The class with its claimed methods wrapped, or null when it has none. */
    static byte[] rewrite(byte[] classFile) {
        ClassWriter out = new ClassWriter(ClassWriter.COMPUTE_MAXS);
        ClaimedTails tails = new ClaimedTails(out);
        new ClassReader(classFile).accept(tails, 0);
        return tails.changed ? out.toByteArray() : null;
    }

    @Override
    public void visit(int version, int access, String name, String signature, String superName, String[] interfaces) {
        owner = name;
        super.visit(version, access, name, signature, superName, interfaces);
    }

    @Override
    public FieldVisitor visitField(int access, String name, String descriptor, String signature, Object value) {
        if ((access & Opcodes.ACC_STATIC) != 0 && descriptor.equals(HANDLE)) {
            handleFields.add(name);
        }
        return super.visitField(access, name, descriptor, signature, value);
    }

    @Override
    public MethodVisitor visitMethod(int access, String name, String descriptor, String signature, String[] exceptions) {
        // Held whole until its end: whether it is claimed is known only once its annotations were read.
        return new MethodNode(Opcodes.ASM9, access, name, descriptor, signature, exceptions) {
            @Override
            public void visitEnd() {
                AnnotationNode claimed = claimed(this);
                if (claimed == null) {
                    accept(cv);
                    return;
                }
                if ((access & Opcodes.ACC_STATIC) == 0) {
                    throw new IllegalStateException(where(this) + " is @Claimed but not static");
                }
                changed = true;
                writeWrapper(this, (String) value(claimed, "live", ""), (Boolean) value(claimed, "site", false));
                name = name + BODY_SUFFIX;
                this.access = (access & ~(Opcodes.ACC_PUBLIC | Opcodes.ACC_PROTECTED)) | Opcodes.ACC_PRIVATE
                        | Opcodes.ACC_SYNTHETIC;
                visibleAnnotations = null;
                invisibleAnnotations = null;
                accept(cv);
            }
        };
    }

    /** The method's {@code Claimed}, or null when it has none. */
    private static AnnotationNode claimed(MethodNode m) {
        if (m.invisibleAnnotations != null) {
            for (AnnotationNode a : m.invisibleAnnotations) {
                if (a.desc.equals(CLAIMED)) {
                    return a;
                }
            }
        }
        return null;
    }

    /** The annotation's value {@code name}, or {@code otherwise} where the source left it to its default. */
    private static Object value(AnnotationNode a, String name, Object otherwise) {
        if (a.values != null) {
            for (int i = 0; i < a.values.size(); i += 2) {
                if (a.values.get(i).equals(name)) {
                    return a.values.get(i + 1);
                }
            }
        }
        return otherwise;
    }

    private void writeWrapper(MethodNode m, String live, boolean site) {
        MethodVisitor w = cv.visitMethod(m.access, m.name, m.desc, m.signature, m.exceptions.toArray(new String[0]));
        if (m.visibleAnnotations != null) {
            for (AnnotationNode a : m.visibleAnnotations) {
                a.accept(w.visitAnnotation(a.desc, true));
            }
        }
        Type[] params = Type.getArgumentTypes(m.desc);
        Type result = Type.getReturnType(m.desc);
        if (site && (params.length == 0 || params[params.length - 1] != Type.INT_TYPE)) {
            throw new IllegalStateException(where(m) + " takes a site, but its last parameter is no int");
        }
        Type[] forwarded = site ? Arrays.copyOf(params, params.length - 1) : params;
        Label claimed = new Label();
        Label tryStart = new Label();
        Label tryEnd = new Label();
        Label handler = new Label();
        w.visitCode();
        w.visitTryCatchBlock(tryStart, tryEnd, handler, "java/lang/Throwable");
        w.visitMethodInsn(Opcodes.INVOKESTATIC, PrologueInserter.RT, "claim", "()Z", false);
        w.visitJumpInsn(Opcodes.IFNE, claimed);
        if (live.isEmpty()) {
            if (forwarded.length == 0 || !forwarded[0].getDescriptor().equals(HANDLE)) {
                throw new IllegalStateException(where(m) + " names no live field, and its first parameter is no MethodHandle");
            }
            loadArguments(w, forwarded, 0);
            w.visitMethodInsn(Opcodes.INVOKEVIRTUAL, "java/lang/invoke/MethodHandle", "invokeExact",
                    Type.getMethodDescriptor(result, Arrays.copyOfRange(forwarded, 1, forwarded.length)), false);
        } else {
            if (!handleFields.contains(live)) {
                throw new IllegalStateException(where(m) + " names live field " + live + ", no static MethodHandle of its class");
            }
            w.visitFieldInsn(Opcodes.GETSTATIC, owner, live, HANDLE);
            loadArguments(w, forwarded, 0);
            w.visitMethodInsn(Opcodes.INVOKEVIRTUAL, "java/lang/invoke/MethodHandle", "invokeExact",
                    Type.getMethodDescriptor(result, forwarded), false);
        }
        w.visitInsn(result.getOpcode(Opcodes.IRETURN));
        w.visitLabel(claimed);
        w.visitFrame(Opcodes.F_SAME, 0, null, 0, null);
        w.visitLabel(tryStart);
        loadArguments(w, params, 0);
        w.visitMethodInsn(Opcodes.INVOKESTATIC, owner, m.name + BODY_SUFFIX, m.desc, false);
        w.visitLabel(tryEnd);
        w.visitMethodInsn(Opcodes.INVOKESTATIC, PrologueInserter.RT, "ended", "()V", false);
        w.visitInsn(result.getOpcode(Opcodes.IRETURN));
        w.visitLabel(handler);
        w.visitFrame(Opcodes.F_SAME1, 0, null, 1, new Object[] {"java/lang/Throwable"});
        w.visitMethodInsn(Opcodes.INVOKESTATIC, PrologueInserter.RT, "failed",
                "(Ljava/lang/Throwable;)Ljava/lang/RuntimeException;", false);
        w.visitInsn(Opcodes.ATHROW);
        w.visitMaxs(0, 0);
        w.visitEnd();
    }

    private static void loadArguments(MethodVisitor w, Type[] params, int slot) {
        for (Type p : params) {
            w.visitVarInsn(p.getOpcode(Opcodes.ILOAD), slot);
            slot += p.getSize();
        }
    }

    private String where(MethodNode m) {
        return owner.replace('/', '.') + "." + m.name + m.desc;
    }
}
