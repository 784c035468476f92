package dev.reprise.agent.instrument;

import java.util.HashSet;
import java.util.Set;

import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;

/**
 * Plain fields of the program that its classes also reach through a handle: a {@code VarHandle}
 * the class looks up by name ({@code findVarHandle}), a field updater, or an offset for
 * {@code Unsafe}. Lock-free libraries publish through the handle (a release store, a
 * compare-and-set) and read plainly, with a fence after (LMAX Disruptor's {@code Sequence.get}:
 * {@code getfield}, then {@code VarHandle.acquireFence}), so the plain read is the acquire half of
 * the handle's release: a synchronization action, ordered as a volatile field's access is
 * ({@link VolatileFields#orderedDeclarer}). Unordered, a replay's reader saw another value than
 * its recording's (log4j2's asynchronous loggers diverged in every RTO replay).
 *
 * <p>Found in an application class's own bytes as it is instrumented: the answer is then a
 * function of the class file, as its cache entry needs, and the same in a recording and its
 * replays whatever order classes load in. The handles a class makes for its own fields order
 * those fields wherever they are read, as a volatile's declaration does
 * ({@code VolatileFields.Declared#handled}): JCTools' map publishes its table through
 * {@code Unsafe} and reads it plainly in the map and in its nested resizer alike. A handle another
 * class makes orders the field in that class's code only.
 *
 * <p>A maker is the JDK's ({@code findVarHandle}, a field updater, {@code objectFieldOffset}), or
 * a library's helper taking the class and the field's name and giving an offset or a handle
 * (JCTools' {@code UnsafeAccess.fieldOffset(Class, String)}).
 */
final class HandleFields {
    private static final String LOOKUP = "java/lang/invoke/MethodHandles$Lookup";
    /** The method names a class file must hold for any of its handles to be found: a cheap first test. */
    /** The descriptors of a library's helpers that make a handle from a class and a field's name. */
    private static final String HELPER_OFFSET = "(Ljava/lang/Class;Ljava/lang/String;)J";
    private static final String HELPER_HANDLE = "(Ljava/lang/Class;Ljava/lang/String;)Ljava/lang/invoke/VarHandle;";
    private static final String[] MAKERS = {"findVarHandle", "newUpdater", "objectFieldOffset", HELPER_OFFSET, HELPER_HANDLE};

    private HandleFields() {
    }

    /** The fields the class file {@code bytes} makes handles for, each {@code owner.name}: the class the handle names, and the field. */
    static Set<String> of(byte[] bytes) {
        return of(new ClassReader(bytes));
    }

    /** The names of the class {@code reader} reads's own fields that its handles name. */
    static Set<String> own(ClassReader reader) {
        Set<String> all = of(reader);
        if (all.isEmpty()) {
            return Set.of();
        }
        String prefix = reader.getClassName() + '.';
        Set<String> own = new HashSet<>();
        for (String f : all) {
            if (f.startsWith(prefix)) {
                own.add(f.substring(prefix.length()));
            }
        }
        return own;
    }

    private static Set<String> of(ClassReader reader) {
        if (!ConstantPool.hasString(reader, MAKERS)) {
            return Set.of();
        }
        Set<String> found = new HashSet<>();
        reader.accept(new ClassVisitor(Opcodes.ASM9) {
            @Override
            public MethodVisitor visitMethod(int access, String name, String desc, String signature, String[] exceptions) {
                return new Finder(found);
            }
        }, ClassReader.SKIP_DEBUG | ClassReader.SKIP_FRAMES);
        return Set.copyOf(found);
    }

    /**
     * A handle's class and field name as its maker takes them: the first class constant loaded
     * since the last call (a field updater's and a {@code findVarHandle}'s receiver class), and the
     * last string constant. A name or class computed at run time is not found.
     */
    private static final class Finder extends MethodVisitor {
        private final Set<String> found;
        private String firstClass;
        private String lastString;

        Finder(Set<String> found) {
            super(Opcodes.ASM9);
            this.found = found;
        }

        @Override
        public void visitLdcInsn(Object value) {
            if (value instanceof Type t && t.getSort() == Type.OBJECT && firstClass == null) {
                firstClass = t.getInternalName();
            } else if (value instanceof String s) {
                lastString = s;
            }
        }

        @Override
        public void visitMethodInsn(int opcode, String owner, String name, String desc, boolean itf) {
            boolean maker = owner.equals(LOOKUP) && name.equals("findVarHandle")
                    || name.equals("newUpdater") && owner.startsWith("java/util/concurrent/atomic/Atomic")
                    || name.equals("objectFieldOffset") && desc.startsWith("(Ljava/lang/Class;Ljava/lang/String;)")
                    || name.equals("getDeclaredField") && owner.equals("java/lang/Class")
                    || opcode == Opcodes.INVOKESTATIC && (desc.equals(HELPER_OFFSET) || desc.equals(HELPER_HANDLE));
            if (maker && firstClass != null && lastString != null) {
                found.add(firstClass + '.' + lastString);
            }
            firstClass = null;
            lastString = null;
        }
    }
}
