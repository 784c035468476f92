package dev.reprise.agent.instrument;

import java.util.HashSet;
import java.util.Set;

import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.FieldVisitor;
import org.objectweb.asm.Handle;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;

import dev.reprise.agent.runtime.ordering.RaceWatch;

/**
 * When a recording learns races ({@link RaceWatch}): reports each access to a plain field (not
 * volatile, not final, not ordered already) to the watch before it is made, with the object
 * accessed and the field's name as its declaring class has it; in an application class, also
 * each read and write of a reference array's element, with the array and the class whose code
 * accesses it (a lock-free structure publishes its entries in array slots), and, in one that
 * makes atomic accesses through {@code Unsafe} or a {@code VarHandle}, of a primitive array's
 * element too: such a class may update its arrays' numbers atomically and read them plainly
 * (JCTools' striped counters). Not in a class whose handles only view arrays' bytes in an order
 * (Lucene's codecs), which would make every byte it reads a report. Constructors are left
 * alone (the object is not yet shared), and so are static initializers (the JVM orders them
 * against every use of the class). A write after the method tested the field unset (read it,
 * perhaps through a local, and branched on null or zero) fills a lazily computed cache, and is
 * reported as such ({@link RaceWatch#fill}): such fields go along with their class's races.
 */
final class RaceWatchRewriter extends ClassVisitor {
    private static final String WATCH = Type.getInternalName(RaceWatch.class);

    private final VolatileFields.Lookup fields;
    private final boolean application;
    private String className;
    /**
     * Whether its reference array elements are watched: an application class's, not ordered
     * already (a class that makes atomic accesses orders them, {@code SyncActionRewriter}).
     */
    private boolean elements;
    /** The class makes atomic accesses. */
    private final boolean atomics;
    /** Whether its primitive array elements are watched: an application class's, not named, that makes atomic accesses. */
    private boolean primitives;

    /** {@code atomics}: the class makes atomic accesses ({@link SyncActionRewriter#makesAtomicAccess}). */
    RaceWatchRewriter(ClassVisitor next, VolatileFields.Lookup fields, boolean application, boolean atomics) {
        super(Opcodes.ASM9, next);
        this.fields = fields;
        this.application = application;
        this.atomics = atomics;
    }

    @Override
    public void visit(int version, int access, String name, String signature, String superName, String[] interfaces) {
        className = name;
        boolean unordered = application && !OrderedFields.ordersElementsIn(name);
        elements = unordered && !atomics;
        primitives = unordered && atomics;
        super.visit(version, access, name, signature, superName, interfaces);
    }

    /** Fields come before methods: the elements of a class that publishes arrays are ordered, not watched. */
    @Override
    public FieldVisitor visitField(int access, String name, String desc, String signature, Object value) {
        if (application && ArrayElements.publishes(access, desc)) {
            elements = false;
        }
        return super.visitField(access, name, desc, signature, value);
    }

    /** Whether the JDK class {@code internalName} is watched: a collection's, or one of the libraries the program runs as its own. */
    static boolean watchesJdk(String internalName) {
        return RaceWatch.JDK_COLLECTIONS.contains(internalName) || Catalogue.isLibrary(internalName);
    }

    @Override
    public MethodVisitor visitMethod(int access, String name, String desc, String signature, String[] exceptions) {
        MethodVisitor mv = super.visitMethod(access, name, desc, signature, exceptions);
        if (name.equals("<init>") || name.equals("<clinit>") || mv == null) {
            return mv;
        }
        return new MethodVisitor(Opcodes.ASM9, mv) {
            /** The plain field the last instructions read, kept through a local's store and load and a copy. */
            private String justRead;
            /** The plain fields this method has tested for null or zero so far. */
            private final Set<String> tested = new HashSet<>();

            @Override
            public void visitFieldInsn(int opcode, String owner, String field, String fieldDesc) {
                String declarer = fields.plainDeclarer(owner, field);
                justRead = null;
                if (declarer != null) {
                    String key = declarer + '.' + field;
                    report(opcode, fieldDesc, key);
                    if (opcode == Opcodes.GETFIELD || opcode == Opcodes.GETSTATIC) {
                        justRead = key;
                    }
                }
                super.visitFieldInsn(opcode, owner, field, fieldDesc);
            }

            // A local's store and load keep what was just read (int h = hash; if (h == 0) ...);
            // every other instruction but a copy forgets it.

            @Override
            public void visitMethodInsn(int opcode, String owner, String name, String desc, boolean itf) {
                justRead = null;
                super.visitMethodInsn(opcode, owner, name, desc, itf);
            }

            @Override
            public void visitInvokeDynamicInsn(String name, String desc, Handle bsm, Object... args) {
                justRead = null;
                super.visitInvokeDynamicInsn(name, desc, bsm, args);
            }

            @Override
            public void visitTypeInsn(int opcode, String type) {
                justRead = null;
                super.visitTypeInsn(opcode, type);
            }

            @Override
            public void visitIntInsn(int opcode, int operand) {
                justRead = null;
                super.visitIntInsn(opcode, operand);
            }

            @Override
            public void visitLdcInsn(Object value) {
                justRead = null;
                super.visitLdcInsn(value);
            }

            @Override
            public void visitIincInsn(int var, int increment) {
                justRead = null;
                super.visitIincInsn(var, increment);
            }

            @Override
            public void visitTableSwitchInsn(int min, int max, Label dflt, Label... labels) {
                justRead = null;
                super.visitTableSwitchInsn(min, max, dflt, labels);
            }

            @Override
            public void visitLookupSwitchInsn(Label dflt, int[] keys, Label[] labels) {
                justRead = null;
                super.visitLookupSwitchInsn(dflt, keys, labels);
            }

            @Override
            public void visitMultiANewArrayInsn(String desc, int dims) {
                justRead = null;
                super.visitMultiANewArrayInsn(desc, dims);
            }

            @Override
            public void visitJumpInsn(int opcode, Label label) {
                if (justRead != null && (opcode == Opcodes.IFNULL || opcode == Opcodes.IFNONNULL
                        || opcode == Opcodes.IFEQ || opcode == Opcodes.IFNE)) {
                    tested.add(justRead);
                }
                justRead = null;
                super.visitJumpInsn(opcode, label);
            }

            @Override
            public void visitInsn(int opcode) {
                if (opcode != Opcodes.DUP) {
                    justRead = null;
                }
                if (elements && (opcode == Opcodes.AALOAD || opcode == Opcodes.AASTORE)
                        || primitives && ArrayElements.isPrimitive(opcode)) {
                    for (int copy : ArrayElements.copyArray(opcode)) {
                        super.visitInsn(copy);
                    }
                    super.visitLdcInsn(className);
                    super.visitMethodInsn(Opcodes.INVOKESTATIC, WATCH, ArrayElements.isLoad(opcode) ? "readElement" : "writeElement",
                            "(Ljava/lang/Object;Ljava/lang/String;)V", false);
                }
                super.visitInsn(opcode);
            }

            /** Calls the watch with the object (copied from under the value a write stores) and the field's name. */
            private void report(int opcode, String fieldDesc, String field) {
                switch (opcode) {
                    case Opcodes.GETFIELD -> super.visitInsn(Opcodes.DUP);
                    case Opcodes.PUTFIELD -> {
                        if (Type.getType(fieldDesc).getSize() == 2) {
                            super.visitInsn(Opcodes.DUP2_X1); // object, value -> value, object, value
                            super.visitInsn(Opcodes.POP2);
                            super.visitInsn(Opcodes.DUP_X2); // -> object, value, object
                        } else {
                            super.visitInsn(Opcodes.DUP2); // object, value -> object, value, object, value
                            super.visitInsn(Opcodes.POP);
                        }
                    }
                    default -> {
                        // a static field: its name alone
                    }
                }
                super.visitLdcInsn(field);
                boolean instance = opcode == Opcodes.GETFIELD || opcode == Opcodes.PUTFIELD;
                boolean read = opcode == Opcodes.GETFIELD || opcode == Opcodes.GETSTATIC;
                String kind = read ? "read" : tested.contains(field) ? "fill" : "write";
                super.visitMethodInsn(Opcodes.INVOKESTATIC, WATCH, kind + (instance ? "" : "Static"),
                        instance ? "(Ljava/lang/Object;Ljava/lang/String;)V" : "(Ljava/lang/String;)V", false);
            }

            @Override
            public void visitMaxs(int maxStack, int maxLocals) {
                super.visitMaxs(maxStack + 2, maxLocals); // a write: the object and the value copied, or the object and a name
            }
        };
    }
}
