package dev.reprise.agent.instrument;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.analysis.Analyzer;
import org.objectweb.asm.tree.analysis.AnalyzerException;
import org.objectweb.asm.tree.analysis.BasicValue;
import org.objectweb.asm.tree.analysis.Frame;
import org.objectweb.asm.tree.analysis.SimpleVerifier;

/**
 * Where the objects of a class named {@code owner.#hash} are made, each gets its hash as its
 * constructor returns, and nothing else does: the hook receives the new object itself, in nested
 * expressions too, and the code stays valid.
 */
class ConstructedHashesRewriterTest {
    static final class Key {
        Key() {
        }

        Key(Key inner) {
        }
    }

    static final class Box {
        Box(Object content) {
        }
    }

    static class Base {
        Base(Object o) {
        }
    }

    /** Methods making keys in the shapes compilers emit, each named for what it makes. */
    static final class Makers extends Base {
        Makers() {
            super(new Key()); // a key made as the super constructor's argument: the super call itself is no new
        }

        Object one() {
            return new Key();
        }

        Object keyInKey() {
            return new Key(new Key());
        }

        Object keyInBox() {
            return new Box(new Key());
        }

        void dropped() {
            new Key();
        }

        Object box() {
            return new Box("x");
        }

        Object conditional(boolean b) {
            return new Box(b ? new Key() : null);
        }
    }

    @AfterEach
    void unset() {
        OrderedFields.configure(List.of());
    }

    @Test
    void eachKeyMadeIsHashedAsItsConstructorReturns() throws Exception {
        String key = Type.getInternalName(Key.class);
        OrderedFields.configure(List.of(key + ".#hash"));
        byte[] bytes;
        try (InputStream in = Makers.class.getResourceAsStream("ConstructedHashesRewriterTest$Makers.class")) {
            bytes = in.readAllBytes();
        }
        ClassReader reader = new ClassReader(bytes);
        assertTrue(ConstructedHashesRewriter.applies(reader));
        ClassWriter writer = new ClassWriter(reader, 0);
        reader.accept(new ConstructedHashesRewriter(writer), 0);
        ClassNode rewritten = new ClassNode();
        new ClassReader(writer.toByteArray()).accept(rewritten, 0);

        Map<String, List<String>> hooked = new TreeMap<>();
        for (MethodNode m : rewritten.methods) {
            Frame<BasicValue>[] frames = framesOf(rewritten.name, m);
            List<String> received = new ArrayList<>();
            for (int i = 0; i < m.instructions.size(); i++) {
                AbstractInsnNode insn = m.instructions.get(i);
                if (insn instanceof MethodInsnNode call && call.name.equals("constructed")) {
                    Frame<BasicValue> before = frames[i];
                    received.add(before.getStack(before.getStackSize() - 1).getType().getInternalName());
                    AbstractInsnNode init = insn.getPrevious().getPrevious();
                    assertEquals(Opcodes.INVOKESPECIAL, init.getOpcode(), m.name);
                    assertEquals(key, ((MethodInsnNode) init).owner, m.name);
                }
            }
            hooked.put(m.name, received);
        }
        assertEquals(Map.of("<init>", List.of(key), "one", List.of(key), "keyInKey", List.of(key, key),
                "keyInBox", List.of(key), "dropped", List.of(key), "box", List.of(), "conditional", List.of(key)), hooked);
    }

    @Test
    void aClassThatNamesNoneIsLeftAlone() throws IOException {
        OrderedFields.configure(List.of("some/Other.#hash", Type.getInternalName(Key.class) + ".field"));
        try (InputStream in = Makers.class.getResourceAsStream("ConstructedHashesRewriterTest$Makers.class")) {
            assertFalse(ConstructedHashesRewriter.applies(new ClassReader(in.readAllBytes())));
        }
    }

    /** The method's frames, checked as the JVM's verifier would check its types. */
    private static Frame<BasicValue>[] framesOf(String owner, MethodNode m) throws AnalyzerException {
        SimpleVerifier verifier = new SimpleVerifier();
        verifier.setClassLoader(ConstructedHashesRewriterTest.class.getClassLoader());
        return new Analyzer<>(verifier).analyze(owner, m);
    }
}
