package dev.reprise.agent.instrument;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;

import dev.reprise.agent.ops.CallSite;
import dev.reprise.agent.ops.environment.TimeOps;
import programs.StackSizes;

/**
 * The stack and locals sizes instrumenting leaves: a method no pass changed keeps its own. C1
 * inlines a callee only while its stack and locals beyond its parameters stay within
 * {@code C1InlineStackLimit} (5 on JDK 17 and 25): room reserved in every method of a class kept
 * tiers 2 and 3 from inlining nearly every small method of the program and the JDK.
 */
class StackSizesTest {
    @Test
    void aMethodNoPassChangesKeepsItsSizesAndTheOthersGetRoom() throws Exception {
        byte[] original = classFile();
        Catalogue.SiteHook millis = new Catalogue.SiteHook(CallSite.Kind.STATIC, "java/lang/System", "currentTimeMillis",
                "()J", false, false, List.of(), Type.getInternalName(TimeOps.class), "currentTimeMillis", "(I)J");
        Catalogue catalogue = new Catalogue(new CatalogueIndex(List.of(), List.of(millis), List.of(), Set.of()), Set.of());
        byte[] instrumented = new Transformer(catalogue, null).transform(null, getClass().getClassLoader(),
                Type.getInternalName(StackSizes.class), null, null, original);
        assertNotNull(instrumented, "an application class with actions, monitors and a hooked call is changed");
        Map<String, int[]> before = sizes(original);
        Map<String, int[]> after = sizes(instrumented);

        assertArrayEquals(before.get("untouched"), after.get("untouched"), "nothing to rewrite: the method's own sizes");
        for (String changed : new String[] {"volatileRead", "synchronizedMethod", "block", "time"}) {
            assertTrue(after.get(changed)[0] > before.get(changed)[0], changed + " gets room for what was added");
        }

        // The JVM verifies every method's sizes when it links the class, before the first call:
        // a stack too small for the added code fails there.
        Class<?> loaded = new ClassLoader(getClass().getClassLoader()) {
            Class<?> define() {
                return defineClass(StackSizes.class.getName(), instrumented, 0, instrumented.length);
            }
        }.define();
        Object subject = loaded.getDeclaredConstructor().newInstance();
        assertEquals(0, loaded.getMethod("volatileRead").invoke(subject));
        assertEquals(0, loaded.getMethod("synchronizedMethod").invoke(subject));
        assertEquals(0, loaded.getMethod("block").invoke(subject));
        assertEquals(5, loaded.getMethod("untouched", int.class).invoke(subject, 5));
    }

    private static byte[] classFile() throws IOException {
        try (InputStream in = StackSizes.class.getResourceAsStream("StackSizes.class")) {
            return in.readAllBytes();
        }
    }

    /** Each method's name to its {max stack, max locals}. */
    private static Map<String, int[]> sizes(byte[] classFile) {
        Map<String, int[]> out = new HashMap<>();
        new ClassReader(classFile).accept(new ClassVisitor(Opcodes.ASM9) {
            @Override
            public MethodVisitor visitMethod(int access, String name, String desc, String signature, String[] exceptions) {
                return new MethodVisitor(Opcodes.ASM9) {
                    @Override
                    public void visitMaxs(int maxStack, int maxLocals) {
                        out.put(name, new int[] {maxStack, maxLocals});
                    }
                };
            }
        }, 0);
        return out;
    }
}
