package dev.reprise.agent.instrument;

import java.io.IOException;
import java.io.InputStream;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.FieldVisitor;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

import dev.reprise.agent.instrument.cache.CacheEntry;

/**
 * Answers whether a field instruction reaches a volatile field, or a field that
 * {@code java.util.concurrent} races on deliberately: its own classes read and write some fields
 * plainly that other threads update atomically through {@code VarHandle}s (a skip list's
 * values, a work queue's indices), so within those classes every non-final field counts. A field instruction names the
 * class it was compiled against, not the one declaring the field, so resolution walks up the
 * superclasses as the JVM does, reading each class file once ({@link ClassFiles}: without loading the
 * class, which a transformation must not do). Classes are keyed by name alone: two loaders defining one name
 * with different volatility is not a case worth a per-loader table.
 *
 * <p>The same class files answer a second question: whether a {@code hashCode()} call on a class
 * reaches a {@code hashCode} that class or a superclass declares, never {@code Object}'s
 * identity hash ({@link #hashCodeDeclarer}).
 */
public final class VolatileFields {
    /**
     * A class's own fields: which are declared, which of them are volatile, which final, which of
     * the others the class's own handles name ({@link HandleFields#own}: ordered wherever read, as
     * volatiles are), and its superclass; and whether it declares an instance {@code hashCode()I},
     * abstract or not.
     */
    public record Declared(String superName, Set<String> fields, Set<String> volatiles, Set<String> finals, Set<String> handled,
                           boolean ownHashCode) {
        /**
         * Kept for every class loaded while the agent runs (thousands): as immutable sets, an
         * array each and none when empty, a fraction of a {@code HashSet}'s map and nodes.
         */
        public Declared {
            fields = Set.copyOf(fields);
            volatiles = Set.copyOf(volatiles);
            finals = Set.copyOf(finals);
            handled = Set.copyOf(handled);
        }
    }

    private static final Declared UNKNOWN = new Declared(null, Set.of(), Set.of(), Set.of(), Set.of(), false);
    /** The answer kind of {@link Lookup#hashCodeDeclarer}, where a field question has its racy flag. */
    private static final String HASH_CODE = "h";
    /** The answer kind of {@link Lookup#jdkAncestor}. */
    private static final String JDK_ANCESTOR = "s";
    /** The answer kind of {@link Lookup#orderedFieldsDeclarer}. */
    private static final String ORDERED_FIELDS = "o";

    /**
     * Each class's own fields: a {@link Declared}, or a cache entry's section of them
     * ({@link CacheEntry#declaredBytes}), parsed when first asked about ({@link #declared}).
     */
    private final Map<String, Object> classes = new ConcurrentHashMap<>();

    /** Registers the class being transformed, whose fields the pass has just seen. */
    void define(String name, Declared declared) {
        classes.put(name, declared);
    }

    /**
     * Registers a class whose instrumentation came from the cache, with the fields its entry kept:
     * parsed only if a class instrumented anew asks about them, which with a warm cache none does,
     * while every class a loader defines comes through here.
     */
    void defineKept(String name, byte[] declared) {
        classes.put(name, declared);
    }

    /** Registers a class from its bytes, when no pass reads them (its instrumentation came from the cache). */
    void defineFromClassFile(String name, byte[] bytes) {
        classes.putIfAbsent(name, scan(new ClassReader(bytes)));
    }

    /** Class {@code c}'s own fields, read from its class file through {@code loader} if no one registered them. */
    private Declared declared(ClassLoader loader, String c) {
        Object kept = classes.get(c);
        if (kept instanceof byte[] section) {
            Declared d;
            try {
                d = CacheEntry.readDeclared(section);
            } catch (IOException | RuntimeException e) {
                d = read(loader, c); // a damaged section: the class file answers
            }
            classes.replace(c, section, d); // unless it was registered anew meanwhile
            return d;
        }
        return kept != null ? (Declared) kept : (Declared) classes.computeIfAbsent(c, k -> read(loader, k));
    }

    /** The questions of one class's instrumentation, asked through {@code loader}. */
    Lookup lookup(ClassLoader loader) {
        return new Lookup(loader, Set.of());
    }

    /** A lookup for a class whose own handles name {@code handles} ({@link HandleFields}). */
    Lookup lookup(ClassLoader loader, Set<String> handles) {
        return new Lookup(loader, handles);
    }

    /**
     * Whether {@code answers} of an earlier {@link Lookup#answers()} still hold through
     * {@code loader}: a class on the class path was instrumented against the fields of classes
     * that may have changed since, without it.
     */
    boolean stillAnswers(ClassLoader loader, List<String> answers) {
        for (String a : answers) {
            String[] q = a.split(";", -1);
            if (q.length != 4) {
                return false;
            }
            String declarer = q[2].equals(HASH_CODE) ? hashCodeDeclarer(loader, q[0])
                    : q[2].equals(JDK_ANCESTOR) ? jdkAncestor(loader, q[0])
                    : q[2].equals(ORDERED_FIELDS) ? orderedFieldsDeclarer(loader, q[0])
                    : orderedDeclarer(loader, q[0], q[1], q[2].equals("1"));
            if (!q[3].equals(declarer == null ? "" : declarer)) {
                return false;
            }
        }
        return true;
    }

    /**
     * One class's questions, with their answers kept: besides its bytes, the only input its
     * instrumentation reads. An answer is {@code owner;field;racy;declarer} (';' is in no JVM name),
     * or {@code owner;;h;declarer} for {@link #hashCodeDeclarer}, {@code owner;;s;ancestor} for
     * {@link #jdkAncestor}, {@code owner;;o;declarer} for {@link #orderedFieldsDeclarer}.
     */
    final class Lookup {
        private final ClassLoader loader;
        private final Set<String> answers = new LinkedHashSet<>();
        /** The fields of the class being instrumented, once the pass has seen them. */
        private String self;
        private Declared own;

        /** The fields the class's own handles name, {@code owner.name} ({@link HandleFields}). */
        private final Set<String> handles;

        private Lookup(ClassLoader loader, Set<String> handles) {
            this.loader = loader;
            this.handles = handles;
        }

        String orderedDeclarer(String owner, String name, boolean racy) {
            String declarer = VolatileFields.this.orderedDeclarer(loader, owner, name, racy);
            // A field the class declares itself, or one its own handles order, is answered by its
            // own bytes, which a cache entry is used only for: no question to ask again.
            boolean byHandle = false;
            if (declarer == null && !handles.isEmpty()) {
                declarer = VolatileFields.this.orderedDeclarer(loader, owner, name, racy, handles);
                byHandle = declarer != null;
            }
            if (!byHandle && !(owner.equals(self) && own != null && own.fields().contains(name))) {
                answers.add(owner + ';' + name + ';' + (racy ? '1' : '0') + ';' + (declarer == null ? "" : declarer));
            }
            return declarer;
        }

        /**
         * {@link VolatileFields#plainDeclarer} through this class's loader. Not kept among the
         * answers: only a run that learns races asks, and it has a class cache of its own.
         */
        String plainDeclarer(String owner, String name) {
            return VolatileFields.this.plainDeclarer(loader, owner, name, handles);
        }

        /** {@link VolatileFields#hashCodeDeclarer} through this class's loader, its answer kept. */
        String hashCodeDeclarer(String owner) {
            String declarer = VolatileFields.this.hashCodeDeclarer(loader, owner);
            // Object's, Enum's and an array's answer is fixed, and one the class declares its own
            // bytes give: no question to ask again.
            if (!hashCodeFixed(owner) && !(owner.equals(self) && own != null && own.ownHashCode())) {
                answers.add(owner + ";;" + HASH_CODE + ';' + (declarer == null ? "" : declarer));
            }
            return declarer;
        }

        /** {@link VolatileFields#jdkAncestor} through this class's loader, its answer kept. */
        String jdkAncestor(String owner) {
            String ancestor = VolatileFields.this.jdkAncestor(loader, owner);
            answers.add(owner + ";;" + JDK_ANCESTOR + ';' + (ancestor == null ? "" : ancestor));
            return ancestor;
        }

        /** {@link VolatileFields#orderedFieldsDeclarer} through this class's loader, its answer kept. */
        String orderedFieldsDeclarer(String owner) {
            if (!OrderedFields.anyField()) {
                return null;
            }
            String declarer = VolatileFields.this.orderedFieldsDeclarer(loader, owner);
            answers.add(owner + ";;" + ORDERED_FIELDS + ';' + (declarer == null ? "" : declarer));
            return declarer;
        }

        void define(String name, Declared declared) {
            self = name;
            own = declared;
            VolatileFields.this.define(name, declared);
        }

        List<String> answers() {
            return List.copyOf(answers);
        }

        /** The class's own fields, if the pass read them: kept with a cache entry, so a hit needs no second reading. */
        Declared declared() {
            return own;
        }
    }

    /**
     * The class declaring the field {@code owner.name} if accesses to it are synchronization
     * actions, else null: a volatile field, one named by {@link OrderedFields}, one its declarer's
     * own handles name ({@link Declared#handled}), a non-final one a handle of the accessing class
     * names ({@link HandleFields}), or with {@code racy}, any non-final field that a class
     * of {@code java.util.concurrent} declares. {@code loader} is the loader of the class whose
     * code names the field.
     */
    String orderedDeclarer(ClassLoader loader, String owner, String name, boolean racy) {
        return orderedDeclarer(loader, owner, name, racy, Set.of());
    }

    /** {@link #orderedDeclarer}, a field {@code handles} names ({@link HandleFields}) ordered too unless final. */
    private String orderedDeclarer(ClassLoader loader, String owner, String name, boolean racy, Set<String> handles) {
        boolean handled = false;
        for (String c = owner; c != null; ) {
            Declared d = declared(loader, c);
            // A handle may name the field through any class from the access's owner up to its declarer.
            handled |= !handles.isEmpty() && handles.contains(c + '.' + name);
            if (d.fields().contains(name)) {
                boolean ordered = d.volatiles().contains(name) || d.handled().contains(name) || OrderedFields.contains(c, name)
                        || handled && !d.finals().contains(name)
                        || racy && !d.finals().contains(name) && c.startsWith("java/util/concurrent/");
                return ordered ? c : null;
            }
            c = d.superName();
        }
        return null;
    }

    /**
     * The class declaring the field {@code owner.name} if it is plain: neither volatile nor final,
     * nor ordered already ({@link OrderedFields}, {@link HandleFields}, or declared in
     * {@code java.util.concurrent}); else null.
     */
    String plainDeclarer(ClassLoader loader, String owner, String name, Set<String> handles) {
        boolean handled = false;
        for (String c = owner; c != null; ) {
            Declared d = declared(loader, c);
            handled |= !handles.isEmpty() && handles.contains(c + '.' + name);
            if (d.fields().contains(name)) {
                boolean plain = !d.volatiles().contains(name) && !d.finals().contains(name) && !d.handled().contains(name)
                        && !OrderedFields.contains(c, name)
                        && !handled && !c.startsWith("java/util/concurrent/");
                return plain ? c : null;
            }
            c = d.superName();
        }
        return null;
    }

    /**
     * The class declaring the {@code hashCode()I} that an {@code invokevirtual owner.hashCode()}
     * reaches, if it is not {@code Object}'s identity hash whatever the receiver's class: {@code owner}
     * or a superclass of it declares one, which every subclass inherits or overrides. {@code Enum}'s
     * is the identity hash, and an array's is {@code Object}'s: null for those, and for a class whose
     * file cannot be read. A {@code super.hashCode()} reaching {@code Object}'s is another call site.
     */
    String hashCodeDeclarer(ClassLoader loader, String owner) {
        for (String c = owner; c != null && !hashCodeFixed(c); ) {
            Declared d = declared(loader, c);
            if (d.ownHashCode()) {
                return c;
            }
            c = d.superName();
        }
        return null;
    }

    /**
     * The first class among {@code owner} and its superclasses that declares a field
     * {@link OrderedFields} names, or null: a copy of an {@code owner} ({@code Object.clone})
     * reads that field.
     */
    String orderedFieldsDeclarer(ClassLoader loader, String owner) {
        for (String c = owner; c != null; c = declared(loader, c).superName()) {
            if (OrderedFields.declaresFieldIn(c)) {
                return c;
            }
        }
        return null;
    }

    /**
     * The first JDK class among the superclasses of {@code owner}, a class outside the JDK: where a
     * call naming {@code owner} reaches a method {@code owner}'s classes do not declare. Null if a
     * class file in between cannot be read.
     */
    String jdkAncestor(ClassLoader loader, String owner) {
        for (String c = owner; c != null; c = declared(loader, c).superName()) {
            if (Transformer.isJdkName(c)) {
                return c;
            }
        }
        return null;
    }

    /** Whether a {@code hashCode()} call on {@code c} reaches the identity hash, whatever the class files say. */
    private static boolean hashCodeFixed(String c) {
        return c.startsWith("[") || c.equals("java/lang/Object") || c.equals("java/lang/Enum");
    }

    private static Declared read(ClassLoader loader, String name) {
        try (InputStream in = ClassFiles.open(loader, name)) {
            if (in == null) {
                return UNKNOWN;
            }
            return scan(new ClassReader(in));
        } catch (IOException | RuntimeException e) {
            return UNKNOWN; // an unreadable class: its fields are treated as plain
        }
    }

    /** A class's {@link Declared}, read from its bytes. */
    static Declared scan(ClassReader reader) {
        Set<String> fields = new HashSet<>();
        Set<String> volatiles = new HashSet<>();
        Set<String> finals = new HashSet<>();
        boolean[] hashCode = new boolean[1];
        reader.accept(new ClassVisitor(Opcodes.ASM9) {
            @Override
            public FieldVisitor visitField(int access, String name, String desc, String signature, Object value) {
                fields.add(name);
                if ((access & Opcodes.ACC_VOLATILE) != 0) {
                    volatiles.add(name);
                }
                if ((access & Opcodes.ACC_FINAL) != 0) {
                    finals.add(name);
                }
                return null;
            }

            @Override
            public MethodVisitor visitMethod(int access, String name, String desc, String signature, String[] exceptions) {
                hashCode[0] |= name.equals("hashCode") && desc.equals("()I") && (access & Opcodes.ACC_STATIC) == 0;
                return null;
            }
        }, ClassReader.SKIP_CODE | ClassReader.SKIP_DEBUG | ClassReader.SKIP_FRAMES);
        // The JDK's handles order its own fields where it reads them: its classes are ordered by
        // the passes that name them, not by their class files.
        Set<String> handled = new HashSet<>();
        if (!Transformer.isJdkName(reader.getClassName())) {
            for (String f : HandleFields.own(reader)) {
                if (fields.contains(f) && !volatiles.contains(f) && !finals.contains(f)) {
                    handled.add(f);
                }
            }
        }
        return new Declared(reader.getSuperName(), fields, volatiles, finals, handled, hashCode[0]);
    }
}
