package corpus.process;

import com.sun.tools.attach.VirtualMachine;
import java.lang.instrument.Instrumentation;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.jar.Manifest;

/**
 * Loads a Java agent into its own JVM through {@code com.sun.tools.attach} from its own process,
 * as Byte Buddy's {@code ByteBuddyAgent.install()} does when the JVM allows it
 * ({@code -Djdk.attach.allowAttachSelf=true}): attaches to its own pid, which signals this JVM
 * and speaks to its attach listener over a Unix socket, loads the agent's jar, asks for a system
 * property through the attach, and uses the {@code Instrumentation} the agent stored.
 */
public final class InProcessAttach {
    public static void main(String[] args) throws Exception {
        Path jar = Files.createTempFile("agent", ".jar");
        Manifest manifest = new Manifest();
        manifest.getMainAttributes().putValue("Agent-Class", SelfAttach.Installer.class.getName());
        SelfAttach.jar(jar, manifest, SelfAttach.Installer.class);
        VirtualMachine vm = VirtualMachine.attach(Long.toString(ProcessHandle.current().pid()));
        try {
            vm.loadAgent(jar.toString(), "loaded in process");
            System.out.println("the attached JVM's java.version is this one's: "
                    + vm.getSystemProperties().getProperty("java.version").equals(System.getProperty("java.version")));
        } finally {
            vm.detach();
        }
        Files.delete(jar);
        Instrumentation inst = SelfAttach.Installer.instrumentation;
        System.out.println("agent options: " + SelfAttach.Installer.options);
        System.out.println("instrumentation: " + (inst != null) + ", this class modifiable "
                + (inst != null && inst.isModifiableClass(InProcessAttach.class)));
    }
}
