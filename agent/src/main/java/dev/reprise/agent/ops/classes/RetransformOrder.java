package dev.reprise.agent.ops.classes;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodType;
import java.security.ProtectionDomain;
import java.util.Comparator;

import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.MethodNode;

import dev.reprise.agent.ops.CallSite;
import dev.reprise.agent.runtime.events.Rt;
import dev.reprise.agent.runtime.jdk.JdkMethods;

/**
 * Order of the methods in the class file a program's retransforming transformer is given (Byte
 * Buddy's, for Mockito's inline mocks). The JVM makes that file from the loaded class, whose
 * methods it keeps sorted by the addresses of their name symbols, which differ from run to run
 * ({@link ReflectionOrder} fixes the same order for reflection); a transformer visiting them in
 * that order numbers, registers and hashes what it makes in an order a replay does not repeat.
 * The JDK's call that hands the bytes to the retransforming transformers is replaced by one that
 * first sorts their methods by name and descriptor, once the session is active: Reprise's own
 * start-up retransformation sees the file as the JVM made it. Nothing is logged: the order is a
 * function of the class alone. A class first loaded, or redefined with bytes the program gives,
 * comes in the program's own order and is left as it is.
 */
public final class RetransformOrder {
    private static final Class<?> MANAGER = JdkMethods.jdkClass("sun.instrument.TransformerManager");
    private static final MethodHandle TRANSFORM = JdkMethods.virtual(MANAGER, "transform",
                    MethodType.methodType(byte[].class, Module.class, ClassLoader.class, String.class, Class.class,
                            ProtectionDomain.class, byte[].class))
            .asType(MethodType.methodType(byte[].class, Object.class, Module.class, ClassLoader.class, String.class,
                    Class.class, ProtectionDomain.class, byte[].class));
    private static final MethodHandle RETRANSFORMABLE = JdkMethods.virtual(MANAGER, "isRetransformable",
            MethodType.methodType(boolean.class)).asType(MethodType.methodType(boolean.class, Object.class));
    /** A class, not a lambda: no call site left to link in the JDK's class loading. */
    private static final Comparator<MethodNode> BY_SIGNATURE = new BySignature();

    private RetransformOrder() {
    }

    @CallSite(kind = CallSite.Kind.VIRTUAL, owner = "sun/instrument/TransformerManager", method = "transform",
            desc = "(Ljava/lang/Module;Ljava/lang/ClassLoader;Ljava/lang/String;Ljava/lang/Class;Ljava/security/ProtectionDomain;[B)[B",
            alsoIn = "sun/instrument/InstrumentationImpl")
    public static byte[] transform(Object manager, Module module, ClassLoader loader, String name, Class<?> redefined,
                                   ProtectionDomain domain, byte[] bytes) throws Throwable {
        byte[] given = redefined != null && Rt.active && (boolean) RETRANSFORMABLE.invokeExact(manager) ? sorted(bytes) : bytes;
        return (byte[]) TRANSFORM.invokeExact(manager, module, loader, name, redefined, domain, given);
    }

    /**
     * {@code classFile} with its methods sorted, written anew, so its constant pool follows the
     * sorted order too; as given if it cannot be read. Reprise's own work, not the program's.
     */
    static byte[] sorted(byte[] classFile) {
        Rt.suppress();
        try {
            ClassNode c = new ClassNode();
            new ClassReader(classFile).accept(c, 0);
            c.methods.sort(BY_SIGNATURE);
            ClassWriter out = new ClassWriter(0);
            c.accept(out);
            return out.toByteArray();
        } catch (RuntimeException e) {
            return classFile;
        } finally {
            Rt.unsuppress();
        }
    }

    private static final class BySignature implements Comparator<MethodNode> {
        @Override
        public int compare(MethodNode a, MethodNode b) {
            int d = a.name.compareTo(b.name);
            return d != 0 ? d : a.desc.compareTo(b.desc);
        }
    }
}
