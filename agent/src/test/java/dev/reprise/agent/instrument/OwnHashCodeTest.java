package dev.reprise.agent.instrument;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import org.junit.jupiter.api.Test;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;

import dev.reprise.agent.ops.CallSite;
import dev.reprise.agent.ops.environment.HashOps;

/** Which {@code hashCode()} calls keep their call and which reach the identity-hash hook. */
class OwnHashCodeTest {
    static class Declares {
        @Override
        public int hashCode() {
            return 7;
        }
    }

    static class Inherits extends Declares {
    }

    abstract static class Abstract {
        @Override
        public abstract int hashCode();
    }

    static class Plain {
    }

    enum Color { RED }

    /** One method per receiver type, each returning {@code x.hashCode()}. */
    static final class Callers {
        int declares(Declares x) {
            return x.hashCode();
        }

        int inherits(Inherits x) {
            return x.hashCode();
        }

        int abstractOne(Abstract x) {
            return x.hashCode();
        }

        int string(String x) {
            return x.hashCode();
        }

        int plain(Plain x) {
            return x.hashCode();
        }

        int object(Object x) {
            return x.hashCode();
        }

        int color(Color x) {
            return x.hashCode();
        }

        int array(int[] x) {
            return x.hashCode();
        }

        int list(List<?> x) {
            return x.hashCode();
        }
    }

    @Test
    void onlyCallsThatMayReachObjectsIdentityHashAreHooked() throws IOException {
        VolatileFields.Lookup lookup = new VolatileFields().lookup(getClass().getClassLoader());
        assertEquals(Set.of("plain", "object", "color", "array", "list"), hookedMethods(lookup));
    }

    @Test
    void theAnswersAboutOtherClassesAreKeptForTheCacheToCheck() throws IOException {
        VolatileFields fields = new VolatileFields();
        VolatileFields.Lookup lookup = fields.lookup(getClass().getClassLoader());
        hookedMethods(lookup);
        String declares = Type.getInternalName(Declares.class);
        assertTrue(lookup.answers().contains(Type.getInternalName(Inherits.class) + ";;h;" + declares), lookup.answers().toString());
        assertFalse(lookup.answers().stream().anyMatch(a -> a.startsWith("java/lang/Object;")), lookup.answers().toString());
        assertTrue(fields.stillAnswers(getClass().getClassLoader(), lookup.answers()));
        assertFalse(fields.stillAnswers(getClass().getClassLoader(), List.of(Type.getInternalName(Inherits.class) + ";;h;")),
                "an answer the class files no longer give");
    }

    /** The methods of {@link Callers} that call {@link HashOps#hashCode} after the call-site pass. */
    private static Set<String> hookedMethods(VolatileFields.Lookup lookup) throws IOException {
        String hashOps = Type.getInternalName(HashOps.class);
        Catalogue.SiteHook hook = new Catalogue.SiteHook(CallSite.Kind.VIRTUAL, "*", "hashCode", "()I", false, false, List.of(),
                hashOps, "hashCode", "(Ljava/lang/Object;)I");
        Catalogue catalogue = new Catalogue(new CatalogueIndex(List.of(), List.of(hook), List.of(), Set.of()), Set.of());
        byte[] bytes;
        try (InputStream in = Callers.class.getResourceAsStream("OwnHashCodeTest$Callers.class")) {
            bytes = in.readAllBytes();
        }
        ClassWriter writer = new ClassWriter(0);
        new ClassReader(bytes).accept(new CallSiteRewriter(writer, catalogue, true, lookup), 0);
        Set<String> hooked = new TreeSet<>();
        new ClassReader(writer.toByteArray()).accept(new ClassVisitor(Opcodes.ASM9) {
            @Override
            public MethodVisitor visitMethod(int access, String name, String desc, String signature, String[] exceptions) {
                return new MethodVisitor(Opcodes.ASM9) {
                    @Override
                    public void visitMethodInsn(int opcode, String owner, String method, String mdesc, boolean itf) {
                        if (owner.equals(hashOps)) {
                            hooked.add(name);
                        }
                    }
                };
            }
        }, 0);
        return hooked;
    }
}
