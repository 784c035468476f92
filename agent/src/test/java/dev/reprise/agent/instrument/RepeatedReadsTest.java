package dev.reprise.agent.instrument;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.io.IOException;
import java.io.InputStream;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;

import dev.reprise.agent.runtime.ordering.SyncActions;
import programs.RepeatedReads;

/**
 * A field {@code --order-field} names, tested and then read again on the path through the test,
 * is read once: one synchronization action where the source has two. Where another path joins
 * before the second read, or the field is not named, every read stays an action. The rewritten
 * class passes the JVM's verifier and computes what the original does.
 */
class RepeatedReadsTest {
    private static final String OWNER = Type.getInternalName(RepeatedReads.class);

    @AfterEach
    void forgetFields() {
        OrderedFields.configure(List.of());
    }

    @Test
    void aFieldTestedThenReadIsReadOnce() throws Exception {
        OrderedFields.configure(List.of(OWNER + ".cache", OWNER + ".count"));
        Catalogue catalogue = new Catalogue(new CatalogueIndex(List.of(), List.of(), List.of(), Set.of()), Set.of());
        byte[] instrumented = new Transformer(catalogue, null).transform(null, getClass().getClassLoader(), OWNER, null, null,
                classFile());
        assertNotNull(instrumented, "a class reading fields to order is changed");
        Map<String, Integer> actions = actions(instrumented);

        assertEquals(1, actions.get("tested"), "cache != null, then cache.length: one read");
        assertEquals(1, actions.get("testedOnAnObject"), "count > 0, then count: one read");
        assertEquals(3, actions.get("joined"), "a path joins before each second read: three reads, as written");
        assertEquals(0, actions.get("notNamed"), "a field not named is no action");

        Class<?> loaded = new ClassLoader(getClass().getClassLoader()) {
            Class<?> define() {
                return defineClass(RepeatedReads.class.getName(), instrumented, 0, instrumented.length);
            }
        }.define();
        Object subject = loaded.getDeclaredConstructor().newInstance();
        assertEquals(-1, loaded.getMethod("tested").invoke(null));
        assertEquals(0, loaded.getMethod("testedOnAnObject").invoke(subject));
        assertEquals(-1, loaded.getMethod("joined", boolean.class).invoke(null, true));
        loaded.getField("cache").set(null, new int[3]);
        loaded.getField("count").set(subject, 7);
        assertEquals(3, loaded.getMethod("tested").invoke(null));
        assertEquals(7, loaded.getMethod("testedOnAnObject").invoke(subject));
        assertEquals(3, loaded.getMethod("joined", boolean.class).invoke(null, false));
    }

    private static byte[] classFile() throws IOException {
        try (InputStream in = RepeatedReads.class.getResourceAsStream("RepeatedReads.class")) {
            return in.readAllBytes();
        }
    }

    /** Each method's name to the synchronization actions it enters. */
    private static Map<String, Integer> actions(byte[] classFile) {
        String actions = Type.getInternalName(SyncActions.class);
        Map<String, Integer> out = new HashMap<>();
        new ClassReader(classFile).accept(new ClassVisitor(Opcodes.ASM9) {
            @Override
            public MethodVisitor visitMethod(int access, String name, String desc, String signature, String[] exceptions) {
                out.put(name, 0);
                return new MethodVisitor(Opcodes.ASM9) {
                    @Override
                    public void visitMethodInsn(int opcode, String owner, String method, String mdesc, boolean itf) {
                        if (owner.equals(actions) && method.startsWith("enter")) {
                            out.merge(name, 1, Integer::sum);
                        }
                    }
                };
            }
        }, 0);
        return out;
    }
}
