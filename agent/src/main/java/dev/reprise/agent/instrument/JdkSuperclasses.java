package dev.reprise.agent.instrument;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * The JDK classes a program's class extends, read from their class files: each one's superclass,
 * the interfaces it names and the access flags of the methods it declares. The JDK does not change under a run (nor under
 * a class cache directory, which the JDK names), so each class is read once.
 */
final class JdkSuperclasses {
    /**
     * A JDK class: its superclass (null for {@code Object}), the interfaces it names, and its
     * methods' access flags by name and descriptor.
     */
    record Declared(String superName, List<String> interfaces, Map<String, Integer> methods) {
    }

    private static final Declared MISSING = new Declared(null, List.of(), Map.of());
    private static final Map<String, Declared> CLASSES = new ConcurrentHashMap<>();

    private JdkSuperclasses() {
    }

    /** JDK class {@code name}'s declarations; none (and no superclass) if its class file is not found. */
    static Declared of(String name) {
        Declared d = CLASSES.get(name);
        if (d == null) {
            d = read(name);
            CLASSES.put(name, d);
        }
        return d;
    }

    private static Declared read(String name) {
        try (InputStream in = ClassFiles.open(null, name)) {
            if (in == null) {
                return MISSING;
            }
            Map<String, Integer> methods = new HashMap<>();
            String[] superName = new String[1];
            List<String> named = new ArrayList<>();
            new ClassReader(in).accept(new ClassVisitor(Opcodes.ASM9) {
                @Override
                public void visit(int version, int access, String n, String signature, String sup, String[] interfaces) {
                    superName[0] = sup;
                    if (interfaces != null) {
                        named.addAll(List.of(interfaces));
                    }
                }

                @Override
                public MethodVisitor visitMethod(int access, String n, String desc, String signature, String[] exceptions) {
                    methods.put(n + desc, access);
                    return null;
                }
            }, ClassReader.SKIP_CODE | ClassReader.SKIP_DEBUG | ClassReader.SKIP_FRAMES);
            return new Declared(superName[0], List.copyOf(named), Map.copyOf(methods));
        } catch (IOException e) {
            return MISSING;
        }
    }

    /** Whether JDK class {@code c} is, extends or implements {@code type}. */
    static boolean isA(String c, String type) {
        for (String k = c; k != null; k = of(k).superName()) {
            if (k.equals(type) || extendsInterface(k, type)) {
                return true;
            }
        }
        return false;
    }

    /** Whether one of the interfaces {@code c} names is {@code type} or extends it. */
    private static boolean extendsInterface(String c, String type) {
        for (String i : of(c).interfaces()) {
            if (i.equals(type) || extendsInterface(i, type)) {
                return true;
            }
        }
        return false;
    }
}
