package dev.reprise.agent.instrument;

import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;

import dev.reprise.agent.runtime.RaceWatch;

/**
 * Keeps the race watch off the JDK's own calls into the collection classes it watches: brackets
 * each call from JDK code outside {@code java.util}'s collections to one of them with
 * {@link RaceWatch#unwatched} and {@link RaceWatch#watched}. The JDK shares its own lists under
 * locks Reprise does not order (the logger tree's), which the watch would report as races. Only
 * in recordings that watch, whose replays lack the bracket: it changes nothing but the watch.
 * Only method bodies change, so the pass is valid on retransformation.
 */
final class UnwatchedCallRewriter extends ClassVisitor {
    private static final String WATCH = Type.getInternalName(RaceWatch.class);

    private int version;
    private String className;
    private String superName;

    UnwatchedCallRewriter(ClassVisitor next) {
        super(Opcodes.ASM9, next);
    }

    /** Whether this run watches and the JDK class's constant pool names a collection class the watch sees. */
    static boolean applies(String className, ClassReader reader) {
        if (!RaceWatch.on() || !QuietCallRewriter.candidate(className) || !QuietCallRewriter.collectionsToo(className)) {
            return false;
        }
        char[] buf = new char[reader.getMaxStringLength()];
        for (int i = 1; i < reader.getItemCount(); i++) {
            int offset = reader.getItem(i);
            if (offset > 0 && reader.readByte(offset - 1) == 7 && brackets(reader.readUTF8(offset, buf))) {
                return true;
            }
        }
        return false;
    }

    private static boolean brackets(String owner) {
        return RaceWatchRewriter.JDK_COLLECTIONS.contains(owner);
    }

    @Override
    public void visit(int version, int access, String name, String signature, String superName, String[] interfaces) {
        this.version = version;
        this.className = name;
        this.superName = superName;
        super.visit(version, access, name, signature, superName, interfaces);
    }

    @Override
    public MethodVisitor visitMethod(int access, String name, String desc, String signature, String[] exceptions) {
        MethodVisitor mv = super.visitMethod(access, name, desc, signature, exceptions);
        if ((access & (Opcodes.ACC_ABSTRACT | Opcodes.ACC_NATIVE)) != 0) {
            return mv;
        }
        return new BracketingVisitor(mv, version, WATCH, "watched", className, access, name, desc) {
            /** In a constructor, {@code this} is uninitialized until the superclass's (or another own) constructor is called. */
            private boolean thisReady = !name.equals("<init>");

            @Override
            public void visitMethodInsn(int opcode, String owner, String method, String mdesc, boolean itf) {
                boolean initializesThis = !thisReady && opcode == Opcodes.INVOKESPECIAL && method.equals("<init>")
                        && (owner.equals(superName) || owner.equals(className));
                thisReady |= initializesThis;
                if (initializesThis || !brackets(owner)) {
                    super.visitMethodInsn(opcode, owner, method, mdesc, itf);
                    return;
                }
                super.visitMethodInsn(Opcodes.INVOKESTATIC, WATCH, "unwatched", "()V", false);
                var start = open();
                super.visitMethodInsn(opcode, owner, method, mdesc, itf);
                close(start, !thisReady);
            }
        };
    }
}
