package dev.reprise.agent.instrument;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.FieldNode;

import programs.ClaimedHooks;

/**
 * The wrapper the build gives a {@code @Claimed} method. In this JVM no session is active, so
 * {@code Rt.claim()} fails and every call must take the live path with the caller's arguments;
 * the claimed path, with an event, runs in every recorded test of the network and file hooks.
 */
class ClaimedTailsTest {
    @Test
    @SuppressWarnings("unchecked")
    void anUnclaimedCallRunsTheLiveHandleWithTheSameArguments() throws Exception {
        Class<?> hooks = load(ClaimedTails.rewrite(classFile()));
        List<String> ran = (List<String>) hooks.getField("RAN").get(null);

        assertEquals(42, hooks.getMethod("twice", int.class).invoke(null, 21));
        hooks.getMethod("note", String.class, long.class).invoke(null, "x", 7L);
        MethodHandle live = MethodHandles.constant(double.class, 2.5);
        live = MethodHandles.dropArguments(live, 0, double.class, Object.class);
        assertEquals(2.5, hooks.getMethod("viaParameter", MethodHandle.class, double.class, Object.class)
                .invoke(null, live, 1.0, "o"));
        assertEquals(List.of("twice live", "note live x 7"), ran, "no event body ran");

        Method body = hooks.getDeclaredMethod("twice$event", int.class);
        assertTrue(Modifier.isPrivate(body.getModifiers()) && body.isSynthetic(), "the body is hidden beside its wrapper");
        body.setAccessible(true);
        assertEquals(-1, body.invoke(null, 21));
        assertTrue(Modifier.isPublic(hooks.getMethod("twice", int.class).getModifiers()), "the wrapper keeps the method's place");
    }

    @Test
    void rewritingTwiceChangesNothingTheSecondTime() throws Exception {
        byte[] once = ClaimedTails.rewrite(classFile());
        assertNotNull(once);
        assertNull(ClaimedTails.rewrite(once), "the annotation is gone once its tail is written");
    }

    @Test
    void aLiveFieldTheClassLacksFailsTheBuild() throws Exception {
        ClassNode node = new ClassNode();
        new ClassReader(classFile()).accept(node, 0);
        node.fields.removeIf((FieldNode f) -> f.name.equals("TWICE_LIVE"));
        ClassWriter out = new ClassWriter(0);
        node.accept(out);
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> ClaimedTails.rewrite(out.toByteArray()));
        assertTrue(e.getMessage().contains("ClaimedHooks.twice(I)I names live field TWICE_LIVE"), e.getMessage());
    }

    private static byte[] classFile() throws IOException {
        try (InputStream in = ClaimedHooks.class.getResourceAsStream("ClaimedHooks.class")) {
            return in.readAllBytes();
        }
    }

    private Class<?> load(byte[] classFile) {
        return new ClassLoader(getClass().getClassLoader()) {
            Class<?> define() {
                return defineClass(ClaimedHooks.class.getName(), classFile, 0, classFile.length);
            }
        }.define();
    }
}
