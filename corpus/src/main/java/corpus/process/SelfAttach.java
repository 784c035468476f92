package corpus.process;

import java.io.InputStream;
import java.io.OutputStream;
import java.lang.instrument.ClassFileTransformer;
import java.lang.instrument.Instrumentation;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;

/**
 * Loads a Java agent into its own JVM as Byte Buddy's {@code installExternal} does (Mockito's
 * inline mock maker): writes the agent's jar to a temporary file, starts a child JVM that attaches
 * to this one's pid through {@code com.sun.tools.attach} and loads the jar, waits for the child,
 * then uses the {@code Instrumentation} the agent stored: as Mockito does next, it appends a jar
 * it wrote to the boot class path, deletes the jar, and loads a class from it; then, as Mockito
 * does to spy on a list, it retransforms {@code ArrayList} (changing nothing) and prints the hash
 * of a list of new objects, which their identity hashes make. The child touches the marker file
 * {@code args[0]}, so a test can tell whether it ran.
 */
public final class SelfAttach {
    public static void main(String[] args) throws Exception {
        Path jar = Files.createTempFile("agent", ".jar");
        Manifest manifest = new Manifest();
        manifest.getMainAttributes().putValue("Agent-Class", Installer.class.getName());
        manifest.getMainAttributes().putValue("Can-Retransform-Classes", "true");
        jar(jar, manifest, Installer.class);
        long pid = ProcessHandle.current().pid();
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process attacher = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"), Attacher.class.getName(),
                String.valueOf(pid), jar.toString(), args[0]).start();
        System.out.println("attacher exited " + attacher.waitFor());
        Files.delete(jar);

        Instrumentation inst = Installer.instrumentation;
        System.out.println("agent options: " + Installer.options);
        System.out.println("instrumentation: " + (inst != null) + ", retransform supported "
                + (inst != null && inst.isRetransformClassesSupported()) + ", this class modifiable "
                + (inst != null && inst.isModifiableClass(SelfAttach.class)));

        Path boot = Files.createTempFile("boot", ".jar");
        jar(boot, new Manifest(), Booted.class);
        inst.appendToBootstrapClassLoaderSearch(new JarFile(boot.toFile()));
        Files.delete(boot);
        Class<?> booted = Class.forName(Booted.class.getName(), false, null);
        System.out.println("from the boot class path: " + booted.getName() + ", loader " + booted.getClassLoader());

        ClassFileTransformer unchanged = new ClassFileTransformer() {
        };
        inst.addTransformer(unchanged, true);
        inst.retransformClasses(ArrayList.class);
        inst.removeTransformer(unchanged);
        List<Object> list = new ArrayList<>(List.of(new Object(), new Object()));
        System.out.println("after ArrayList's retransformation, a list hashes to " + list.hashCode());
    }

    /** Writes a jar of the classes {@code classes}, read from this program's class path. */
    static void jar(Path jar, Manifest manifest, Class<?>... classes) throws Exception {
        manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        try (OutputStream file = Files.newOutputStream(jar); JarOutputStream out = new JarOutputStream(file, manifest)) {
            for (Class<?> c : classes) {
                String entry = c.getName().replace('.', '/') + ".class";
                out.putNextEntry(new JarEntry(entry));
                try (InputStream bytes = SelfAttach.class.getClassLoader().getResourceAsStream(entry)) {
                    bytes.transferTo(out);
                }
            }
        }
    }

    /** A class the program puts on the boot class path, as Mockito does its dispatcher. */
    public static final class Booted {
    }

    /** The agent: stores what it is given, as Byte Buddy's Installer does. */
    public static final class Installer {
        static volatile Instrumentation instrumentation;
        static volatile String options;

        public static void agentmain(String args, Instrumentation inst) {
            options = args;
            instrumentation = inst;
        }
    }

    /** The child: attaches to the JVM {@code args[0]} and loads the agent jar {@code args[1]}. */
    public static final class Attacher {
        public static void main(String[] args) throws Exception {
            Files.createFile(Path.of(args[2]));
            com.sun.tools.attach.VirtualMachine vm = com.sun.tools.attach.VirtualMachine.attach(args[0]);
            try {
                vm.loadAgent(args[1], "stored by the agent");
            } finally {
                vm.detach();
            }
        }
    }
}
