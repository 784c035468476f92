package dev.reprise.agent.instrument;

import java.util.Set;

import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.FieldVisitor;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.FieldInsnNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;

import dev.reprise.agent.runtime.events.Sites;
import dev.reprise.agent.runtime.ordering.AloneMain;
import dev.reprise.agent.runtime.ordering.RaceWatch;
import dev.reprise.agent.runtime.ordering.SyncActions;

/**
 * Brackets each synchronization action outside monitors with {@code SyncActions.enter} or
 * {@code enterStatic} (a read, its site negated, or a write, which orders differently) and
 * {@code SyncActions.exit}: volatile field reads and writes, and the field and element accesses
 * of {@code Unsafe} and {@code VarHandle} (atomic, ordered or deliberately plain), the
 * primitives {@code java.util.concurrent} is built on. The location entered is the object whose
 * field or element is accessed (every field and element of an object is one resource; coarser
 * is safe), or, for a static field, the field itself.
 *
 * <p>If the action throws, the exit runs on the exception path ({@link BracketingVisitor}).
 * Operands that sit above the location on the stack are parked in locals no pass has claimed
 * ({@link MethodLocals}).
 * In a constructor, the actions on {@code this} are left alone, as nothing else can reach the
 * object yet, but those on other objects are bracketed ({@link ConstructorThis}): a concurrent
 * queue's iterator walks the queue's nodes in its constructor. A JDK class's static initializers
 * are left alone, their context quiet; an application class's run in an ordered context of their
 * own ({@code ClassInits}) and may publish to other threads through any class's fields.
 */
final class SyncActionRewriter extends ClassVisitor {
    private static final String ACTIONS = Type.getInternalName(SyncActions.class);
    private static final String WATCH = Type.getInternalName(RaceWatch.class);
    private static final String VAR_HANDLE = "java/lang/invoke/VarHandle";
    private static final Set<String> UNSAFES = Set.of("jdk/internal/misc/Unsafe", "sun/misc/Unsafe");
    /**
     * The JDK classes that keep a thread's own state in its {@code Thread} object through
     * {@code Unsafe} or a {@code VarHandle} (JDK 17 to 25): their actions on a {@code Thread}
     * are no synchronization ({@link SyncActions#enterUnlessThread}).
     */
    private static final Set<String> THREAD_STATE_KEEPERS = Set.of("java/util/concurrent/ThreadLocalRandom",
            "java/util/concurrent/locks/LockSupport", "java/util/concurrent/atomic/Striped64",
            "java/util/concurrent/ForkJoinWorkerThread");

    private final VolatileFields.Lookup volatiles;
    private final MethodLocals locals;
    /**
     * An application class's: its static initializer is rewritten too, and a learning recording
     * hears of its atomic writes to arrays ({@code RaceWatch.atomicWrite}).
     */
    private final boolean application;
    private String className;
    /** The class is the JDK's concurrency code: its plain fields count too ({@link VolatileFields}). */
    private boolean racy;
    /**
     * Its reference array elements are ordered: the JDK's concurrency code, an application class
     * that makes atomic accesses or publishes arrays through a volatile field
     * ({@link ArrayElements#publishes}), or a class {@link OrderedFields} names. A lock-free class puts
     * objects into an array's slots plainly while it holds a lock of its own made of
     * compare-and-sets, and reads them plainly without it, as {@code Striped64} does its cells and
     * the libraries that copy it do (Guava's, Ehcache's map's counter): a race in every run, which
     * shows only under contention, where a learning recording may never meet it.
     */
    private boolean elements;
    /**
     * Its primitive array elements are ordered too: a class {@link OrderedFields} names that makes
     * atomic accesses, the only kind whose primitive elements a recording watches. Another named
     * class raced on its reference arrays: h2's string utilities, ordered for those, read their
     * characters plainly by the million.
     */
    private boolean primitives;
    /** The class makes atomic accesses ({@link #makesAtomicAccess}), as the constructor's caller found. */
    private final boolean atomics;
    /** The class is one of {@link #THREAD_STATE_KEEPERS}. */
    private boolean keepsThreadState;
    /** The entry point for an action on an object, by {@link #keepsThreadState}. */
    private String enterObject;
    private int version;

    /**
     * {@code locals}: read for every method when the class {@linkplain #namesAtomicAccess names
     * atomic access}; {@code application}: an application class's ({@link #application});
     * {@code atomics}: the class {@linkplain #makesAtomicAccess makes atomic accesses}.
     */
    SyncActionRewriter(ClassVisitor next, VolatileFields.Lookup volatiles, MethodLocals locals, boolean application,
                       boolean atomics) {
        super(Opcodes.ASM9, next);
        this.volatiles = volatiles;
        this.locals = locals;
        this.application = application;
        this.atomics = atomics;
    }

    /** Whether the class names {@code Unsafe} or {@code VarHandle}: only then are its methods' local counts needed. */
    static boolean namesAtomicAccess(ClassReader reader) {
        for (String name : ConstantPool.names(reader, ConstantPool.CLASS)) {
            if (VAR_HANDLE.equals(name) || UNSAFES.contains(name)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether the class's code makes an atomic access through {@code Unsafe} or a
     * {@code VarHandle}: one this pass brackets, so not a handle's plain view of a primitive array
     * or a buffer ({@link #isData}). Such a class may update its arrays' numbers atomically and read
     * them plainly, which a learning recording watches ({@code RaceWatchRewriter}). Reads the
     * methods' code: asked only of a class that {@linkplain #namesAtomicAccess names atomic access}.
     */
    static boolean makesAtomicAccess(ClassReader reader) {
        boolean[] found = {false};
        reader.accept(new ClassVisitor(Opcodes.ASM9) {
            @Override
            public MethodVisitor visitMethod(int access, String name, String desc, String signature, String[] exceptions) {
                return found[0] ? null : new MethodVisitor(Opcodes.ASM9) {
                    @Override
                    public void visitMethodInsn(int opcode, String owner, String method, String mdesc, boolean itf) {
                        found[0] |= opcode == Opcodes.INVOKEVIRTUAL && locationIndex(owner, method, mdesc, false) >= 0;
                    }
                };
            }
        }, ClassReader.SKIP_DEBUG | ClassReader.SKIP_FRAMES);
        return found[0];
    }

    @Override
    public void visit(int version, int access, String name, String signature, String superName, String[] interfaces) {
        this.version = version & 0xFFFF;
        this.className = name;
        this.racy = Catalogue.ordersSyncActionsIn(name);
        this.elements = racy || application && atomics || OrderedFields.ordersElementsIn(name);
        this.primitives = atomics && OrderedFields.ordersElementsIn(name);
        this.keepsThreadState = THREAD_STATE_KEEPERS.contains(name);
        this.enterObject = keepsThreadState ? "enterUnlessThread" : "enter";
        super.visit(version, access, name, signature, superName, interfaces);
    }

    /** Fields come before methods: an application class that publishes arrays orders their elements. */
    @Override
    public FieldVisitor visitField(int access, String name, String desc, String signature, Object value) {
        elements |= application && ArrayElements.publishes(access, desc);
        return super.visitField(access, name, desc, signature, value);
    }

    @Override
    public MethodVisitor visitMethod(int access, String name, String desc, String signature, String[] exceptions) {
        MethodVisitor mv = super.visitMethod(access, name, desc, signature, exceptions);
        if ((name.equals("<clinit>") && !application) || (access & (Opcodes.ACC_ABSTRACT | Opcodes.ACC_NATIVE)) != 0) {
            return mv;
        }
        int firstTemp = locals.first(name + desc);
        if (name.equals("<init>") && mv != null) {
            MethodVisitor target = mv; // named apart: inside the node, mv is its own (null) field
            // Buffered: which actions are on this needs the whole constructor's code.
            return new MethodNode(Opcodes.ASM9, access, name, desc, signature, exceptions) {
                @Override
                public void visitEnd() {
                    ConstructorThis self = hasAction(this) ? ConstructorThis.of(className, this) : null;
                    accept(self == null ? target : new Actions(target, access, name, desc, firstTemp, self));
                }
            };
        }
        if (AloneMain.copied(className, desc)) {
            return new AloneCopy(mv, next -> new Actions(next, access, name, desc, firstTemp, null), className, access, name, desc,
                    signature, exceptions);
        }
        return new Actions(mv, access, name, desc, firstTemp, null);
    }

    /** Whether {@code opcode} is an element instruction this class's actions include. */
    private boolean bracketsElement(int opcode) {
        return elements && (opcode == Opcodes.AALOAD || opcode == Opcodes.AASTORE) || primitives && ArrayElements.isPrimitive(opcode);
    }

    /** Whether constructor {@code m} has an instruction {@link Actions} may bracket: only then is it analyzed. */
    private boolean hasAction(MethodNode m) {
        for (AbstractInsnNode i = m.instructions.getFirst(); i != null; i = i.getNext()) {
            if (i instanceof FieldInsnNode f && volatiles.orderedDeclarer(f.owner, f.name, racy) != null
                    || i instanceof MethodInsnNode c && (c.getOpcode() == Opcodes.INVOKEVIRTUAL
                            && locationIndex(c.owner, c.name, c.desc, racy) >= 0 || c.name.equals("clone"))
                    || bracketsElement(i.getOpcode())) {
                return true;
            }
        }
        return false;
    }

    /**
     * How many values (after the coordinates) a {@code VarHandle} access mode takes, or -1 if it is
     * no access. Plain {@code get} and {@code set} count too: code that uses a handle for a plain
     * access to an object does so to race deliberately, publishing through a later release
     * (but see {@link #isData}).
     */
    private static int varHandleValues(String mode) {
        if (mode.equals("get") || mode.equals("getVolatile") || mode.equals("getAcquire") || mode.equals("getOpaque")) {
            return 0;
        }
        if (mode.equals("set") || mode.equals("setVolatile") || mode.equals("setRelease") || mode.equals("setOpaque")
                || mode.startsWith("getAndSet") || mode.startsWith("getAndAdd") || mode.startsWith("getAndBitwise")) {
            return 1;
        }
        if (mode.startsWith("compareAnd") || mode.startsWith("weakCompareAndSet")) {
            return 2;
        }
        return -1;
    }

    /**
     * Whether a handle's first coordinate is plain data: an array of primitives or a
     * {@code ByteBuffer}. A plain {@code get} or {@code set} there is a view handle reading or
     * writing numbers in a chosen byte order (Lucene reads its every hash and posting this way),
     * an access like {@code b[i]}, not a publication. Outside the JDK's concurrency code it is no
     * synchronization action; the ordered modes on such handles still are.
     */
    private static boolean isData(Type coordinate) {
        return coordinate.getSort() == Type.ARRAY && coordinate.getDimensions() == 1
                        && coordinate.getElementType().getSort() < Type.ARRAY
                || coordinate.getInternalName().equals("java/nio/ByteBuffer");
    }

    /**
     * Whether an {@code Unsafe} method is an access to (object, offset): every such access, plain
     * ones included, as {@code java.util.concurrent} writes links plainly and publishes them with
     * a later compare-and-set (AQS's {@code setPrevRelaxed}), and readers race with those writes.
     */
    private static boolean unsafeAction(String name, String desc) {
        if (!desc.startsWith("(Ljava/lang/Object;J")) {
            return false;
        }
        return name.startsWith("get") || name.startsWith("put") || name.startsWith("compareAnd")
                || name.startsWith("weakCompareAndSet");
    }

    /**
     * For a call that is a synchronization action: the index of the first argument above its
     * location on the stack (the location is the stack entry just below it: the receiver when 0).
     * -1 for any other call.
     */
    private static int locationIndex(String owner, String name, String desc, boolean racy) {
        if (UNSAFES.contains(owner)) {
            return unsafeAction(name, desc) ? 1 : -1; // unsafe, object, offset, operands...
        }
        if (!owner.equals(VAR_HANDLE)) {
            return -1;
        }
        int values = varHandleValues(name);
        Type[] args = Type.getArgumentTypes(desc);
        int coordinates = args.length - values;
        if (values < 0 || coordinates < 0) {
            return -1;
        }
        if (!racy && coordinates > 0 && (name.equals("get") || name.equals("set")) && isData(args[0])) {
            return -1;
        }
        // handle, object or array, operands...; a static field (resolved at run time, SyncActions.enterHandle)
        // or a non-object coordinate: the handle
        return coordinates > 0 && args[0].getSort() >= Type.ARRAY ? 1 : 0;
    }

    /**
     * Whether a synchronization action call only reads. Everything else, a compare-and-set that
     * fails included, counts as a write: ordering it as one is only more order.
     */
    private static boolean isRead(String owner, String name) {
        return UNSAFES.contains(owner) ? name.startsWith("get") && !name.startsWith("getAnd") : varHandleValues(name) == 0;
    }

    private final class Actions extends BracketingVisitor {
        private final String method;
        /** First local free for parking operands, or -1 if unknown (then operand-carrying calls are left alone). */
        private final int firstTemp;
        /** In a constructor, which actions are on {@code this}; null in any other method. */
        private final ConstructorThis self;
        /** In a constructor, whether {@code this} is initialized yet: brackets before are closed apart. */
        private boolean thisReady;
        /** The field instructions and calls visited so far, as {@link ConstructorThis} numbers them. */
        private int fields;
        private int calls;
        private int maxTemp;
        private int line;

        Actions(MethodVisitor mv, int access, String method, String desc, int firstTemp, ConstructorThis self) {
            super(mv, version, ACTIONS, "exit", className, access, method, desc);
            this.method = method;
            this.firstTemp = firstTemp;
            this.self = self;
            this.thisReady = self == null;
            this.maxTemp = Math.max(firstTemp, 0);
        }

        /** After the bracketed instruction: closes the bracket, apart if {@code this} is not initialized yet. */
        private void closeAction(Label start) {
            close(start, !thisReady);
        }

        @Override
        public void visitLineNumber(int line, Label start) {
            this.line = line;
            super.visitLineNumber(line, start);
        }

        /**
         * In the JDK's concurrency code, reference array elements too: a work queue stores a task
         * plainly into a slot that a thief takes by compare-and-set. In a class whose elements a
         * recording found raced ({@link OrderedFields}), too, primitive ones included.
         */
        @Override
        public void visitInsn(int opcode) {
            if (!bracketsElement(opcode)) {
                super.visitInsn(opcode);
                return;
            }
            for (int copy : ArrayElements.copyArray(opcode)) {
                super.visitInsn(copy);
            }
            Label start = enter(enterObject, "(Ljava/lang/Object;I)V", ArrayElements.isLoad(opcode));
            super.visitInsn(opcode);
            closeAction(start);
        }

        @Override
        public void visitFieldInsn(int opcode, String owner, String name, String desc) {
            int ordinal = fields++;
            String declarer = volatiles.orderedDeclarer(owner, name, racy);
            if (declarer == null || self != null && self.fieldOnThis(ordinal)) {
                super.visitFieldInsn(opcode, owner, name, desc);
                return;
            }
            Label start;
            switch (opcode) {
                case Opcodes.GETFIELD -> {
                    super.visitInsn(Opcodes.DUP);
                    start = enter(enterObject, "(Ljava/lang/Object;I)V", true);
                }
                case Opcodes.PUTFIELD -> {
                    if (Type.getType(desc).getSize() == 2) {
                        super.visitInsn(Opcodes.DUP2_X1);
                        super.visitInsn(Opcodes.POP2);
                        super.visitInsn(Opcodes.DUP_X2);
                    } else {
                        super.visitInsn(Opcodes.DUP2);
                        super.visitInsn(Opcodes.POP);
                    }
                    start = enter(enterObject, "(Ljava/lang/Object;I)V", false);
                }
                default -> {
                    initializeFirst(owner, name, desc);
                    super.visitLdcInsn(SyncActions.staticFieldKey(declarer, name));
                    start = enter("enterStatic", "(II)V", opcode == Opcodes.GETSTATIC);
                }
            }
            super.visitFieldInsn(opcode, owner, name, desc);
            closeAction(start);
        }

        @Override
        public void visitMethodInsn(int opcode, String owner, String name, String desc, boolean itf) {
            int ordinal = calls++;
            if (self != null && self.initializes(ordinal)) {
                super.visitMethodInsn(opcode, owner, name, desc, itf);
                thisReady = true;
                return;
            }
            if (copiesOrdered(opcode, owner, name, desc) && (self == null || !self.operandOnThis(ordinal, 0))) {
                super.visitInsn(Opcodes.DUP);
                Label start = enter(enterObject, "(Ljava/lang/Object;I)V", true);
                super.visitMethodInsn(opcode, owner, name, desc, itf);
                closeAction(start);
                return;
            }
            int keep = opcode == Opcodes.INVOKEVIRTUAL && firstTemp >= 0 ? locationIndex(owner, name, desc, racy) : -1;
            if (keep < 0 || self != null && self.operandOnThis(ordinal, keep)) {
                super.visitMethodInsn(opcode, owner, name, desc, itf);
                return;
            }
            Type[] args = Type.getArgumentTypes(desc);
            int[] slots = new int[args.length];
            int next = firstTemp;
            for (int i = keep; i < args.length; i++) {
                slots[i] = next;
                next += args[i].getSize();
            }
            maxTemp = Math.max(maxTemp, next);
            for (int i = args.length - 1; i >= keep; i--) {
                super.visitVarInsn(args[i].getOpcode(Opcodes.ISTORE), slots[i]);
            }
            if (application && RaceWatch.on() && !isRead(owner, name) && !(owner.equals(VAR_HANDLE) && keep == 0)) {
                // A learning recording: an atomic write to an array's element, which the class's
                // plain reads of its elements may race with (RaceWatch.atomicWrite).
                super.visitInsn(Opcodes.DUP);
                super.visitLdcInsn(className);
                super.visitMethodInsn(Opcodes.INVOKESTATIC, WATCH, "atomicWrite", "(Ljava/lang/Object;Ljava/lang/String;)V", false);
            }
            super.visitInsn(Opcodes.DUP);
            Label start;
            if (UNSAFES.contains(owner) && !keepsThreadState) {
                // An Unsafe access with a null base reaches memory at an absolute address: the offset names it.
                super.visitVarInsn(Opcodes.LLOAD, slots[1]);
                start = enter("enterUnsafe", "(Ljava/lang/Object;JI)V", isRead(owner, name));
            } else {
                // A handle without coordinates reaches a static field, which getstatic and putstatic name by a key.
                boolean staticField = owner.equals(VAR_HANDLE) && args.length == varHandleValues(name);
                start = enter(staticField ? "enterHandle" : enterObject, "(Ljava/lang/Object;I)V", isRead(owner, name));
            }
            for (int i = keep; i < args.length; i++) {
                super.visitVarInsn(args[i].getOpcode(Opcodes.ILOAD), slots[i]);
            }
            super.visitMethodInsn(opcode, owner, name, desc, itf);
            closeAction(start);
        }

        /**
         * Whether the call copies an object whose fields {@link OrderedFields} names some of, or
         * an array whose elements this class orders: {@code clone()} or {@code super.clone()}
         * reaching {@code Object}'s in such a class (protected, so its receiver is an instance of
         * the class), or an array's {@code clone()}. The copy reads every field or element at
         * once, outside the brackets of their instructions, so it is a read of the object like
         * theirs: ordered after the last write, or the copy takes whatever value the other
         * thread's ordered write had left by then, another in a replay (h2's page copies its
         * binary search's cached position). A field declared in a subclass of this class is not
         * seen (docs/ordering.md).
         */
        private boolean copiesOrdered(int opcode, String owner, String name, String desc) {
            if (!name.equals("clone") || !desc.startsWith("()")) {
                return false;
            }
            if ((opcode == Opcodes.INVOKESPECIAL || opcode == Opcodes.INVOKEVIRTUAL) && owner.equals("java/lang/Object")) {
                return volatiles.orderedFieldsDeclarer(className) != null;
            }
            return opcode == Opcodes.INVOKEVIRTUAL && owner.startsWith("[") && OrderedFields.ordersElementsIn(className);
        }

        /**
         * Reads the static field once, unbracketed, and drops the value: the read initializes its
         * class, which may mean waiting for the thread initializing it. That wait must come before
         * the slot's lock is taken, as the initializer may run an action on the same slot. Any
         * class, the accessing one included: an instance made by its initializer can run on
         * another thread before the initializer ends.
         */
        private void initializeFirst(String owner, String name, String desc) {
            super.visitFieldInsn(Opcodes.GETSTATIC, owner, name, desc);
            super.visitInsn(Type.getType(desc).getSize() == 2 ? Opcodes.POP2 : Opcodes.POP);
        }

        /**
         * With the location on the stack: enters it and opens the handled range of the action. A
         * read passes its site negated ({@link SyncActions#enter}).
         */
        private Label enter(String enter, String enterDesc, boolean read) {
            int site = Sites.register(className, method, line);
            super.visitIntInsn(Opcodes.SIPUSH, read ? -site : site);
            super.visitMethodInsn(Opcodes.INVOKESTATIC, ACTIONS, enter, enterDesc, false);
            return open();
        }

        @Override
        int extraStack() {
            return 4; // an Unsafe call's base, offset (two words) and site
        }

        @Override
        int maxLocals(int maxLocals) {
            return Math.max(maxLocals, maxTemp);
        }
    }
}
