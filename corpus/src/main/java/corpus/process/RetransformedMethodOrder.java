package corpus.process;

import java.lang.instrument.ClassFileTransformer;
import java.lang.instrument.Instrumentation;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.ProtectionDomain;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.jar.Manifest;

import corpus.Expect;

/**
 * A class's methods as an agent's retransforming transformer sees them: Mockito's inline mock
 * maker retransforms the classes it mocks, and Byte Buddy visits their methods in the order of
 * the class file it is given. The JVM makes that file from the loaded class, whose methods it
 * keeps sorted by where their names' symbols lie in memory: here two threads first create half
 * the names each, at once, and that order changes between plain runs now and then, and between a
 * recording and its replays always, Reprise's own work having made other symbols first in each.
 * The agent is attached as {@link SelfAttach} attaches it. Expected: a replay's transformer sees
 * the methods in the recording's order.
 */
@Expect
public final class RetransformedMethodOrder {
    private RetransformedMethodOrder() {
    }

    static final class Odd {
        void m01() {
        }

        void m03() {
        }

        void m05() {
        }

        void m07() {
        }

        void m09() {
        }

        void m11() {
        }
    }

    static final class Even {
        void m02() {
        }

        void m04() {
        }

        void m06() {
        }

        void m08() {
        }

        void m10() {
        }

        void m12() {
        }
    }

    /** The class retransformed: every name both threads made, loaded after them. */
    static final class Mocked {
        void m01() {
        }

        void m02() {
        }

        void m03() {
        }

        void m04() {
        }

        void m05() {
        }

        void m06() {
        }

        void m07() {
        }

        void m08() {
        }

        void m09() {
        }

        void m10() {
        }

        void m11() {
        }

        void m12() {
        }
    }

    public static void main(String[] args) throws Exception {
        Path jar = Files.createTempFile("agent", ".jar");
        Manifest manifest = new Manifest();
        manifest.getMainAttributes().putValue("Agent-Class", SelfAttach.Installer.class.getName());
        manifest.getMainAttributes().putValue("Can-Retransform-Classes", "true");
        SelfAttach.jar(jar, manifest, SelfAttach.Installer.class);
        Path marker = Files.createTempDirectory("attached").resolve("attacher-ran");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process attacher = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
                SelfAttach.Attacher.class.getName(), String.valueOf(ProcessHandle.current().pid()), jar.toString(),
                marker.toString()).start();
        System.out.println("attacher exited " + attacher.waitFor());
        Instrumentation inst = SelfAttach.Installer.instrumentation;

        CyclicBarrier together = new CyclicBarrier(2);
        Thread odd = new Thread(() -> {
            await(together);
            new Odd();
        });
        Thread even = new Thread(() -> {
            await(together);
            new Even();
        });
        odd.start();
        even.start();
        odd.join();
        even.join();
        new Mocked();

        List<String> seen = new ArrayList<>();
        ClassFileTransformer spy = new ClassFileTransformer() {
            @Override
            public byte[] transform(Module module, ClassLoader loader, String name, Class<?> redefined,
                                    ProtectionDomain domain, byte[] bytes) {
                if (redefined == Mocked.class) {
                    seen.addAll(methods(bytes));
                }
                return null;
            }
        };
        inst.addTransformer(spy, true);
        inst.retransformClasses(Mocked.class);
        inst.removeTransformer(spy);
        System.out.println("the transformer saw " + seen);
    }

    private static void await(CyclicBarrier together) {
        try {
            together.await();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** The names of a class file's methods, in its order. */
    static List<String> methods(byte[] classFile) {
        ByteBuffer in = ByteBuffer.wrap(classFile);
        in.position(8);
        int count = in.getShort() & 0xFFFF;
        String[] utf8 = new String[count];
        for (int i = 1; i < count; i++) {
            int tag = in.get();
            switch (tag) {
                case 1 -> {
                    byte[] s = new byte[in.getShort() & 0xFFFF];
                    in.get(s);
                    utf8[i] = new String(s, StandardCharsets.UTF_8);
                }
                case 3, 4, 9, 10, 11, 12, 17, 18 -> skip(in, 4);
                case 5, 6 -> {
                    skip(in, 8);
                    i++; // a long or double takes two entries
                }
                case 7, 8, 16, 19, 20 -> skip(in, 2);
                case 15 -> skip(in, 3);
                default -> throw new IllegalStateException("constant tag " + tag);
            }
        }
        skip(in, 6); // access, this, super
        skip(in, 2 * (in.getShort() & 0xFFFF)); // interfaces
        List<String> names = new ArrayList<>();
        for (int members = 0; members < 2; members++) { // fields, then methods
            int n = in.getShort() & 0xFFFF;
            for (int j = 0; j < n; j++) {
                skip(in, 2);
                String name = utf8[in.getShort() & 0xFFFF];
                skip(in, 2);
                int attributes = in.getShort() & 0xFFFF;
                for (int k = 0; k < attributes; k++) {
                    skip(in, 2);
                    skip(in, in.getInt());
                }
                if (members == 1) {
                    names.add(name);
                }
            }
        }
        return names;
    }

    private static void skip(ByteBuffer in, int n) {
        in.position(in.position() + n);
    }
}
