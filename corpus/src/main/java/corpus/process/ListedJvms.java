package corpus.process;

import com.sun.tools.attach.VirtualMachine;
import com.sun.tools.attach.VirtualMachineDescriptor;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Lists the JVMs of this machine as a monitoring tool does ({@code VirtualMachine.list()}), which
 * reads each one's performance data: its command line is the descriptor's name. Starts a child
 * JVM first, which touches a marker in {@code args[0]} and waits for its stdin to close, and
 * prints the name under which the list shows it.
 */
public final class ListedJvms {
    public static void main(String[] args) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process child = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
                Waiter.class.getName(), args[0], "listed-by-its-parent").start();
        BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
        System.out.println("child says: " + out.readLine());
        String id = Long.toString(child.pid());
        String name = null;
        for (VirtualMachineDescriptor vm : VirtualMachine.list()) {
            if (vm.id().equals(id)) {
                name = vm.displayName();
            }
        }
        System.out.println("listed as: " + name);
        try (OutputStream in = child.getOutputStream()) {
            in.write('\n');
        }
        System.out.println("child exited " + child.waitFor());
    }

    /** The child: says it is ready once its JVM runs, which has its performance data by then. */
    public static final class Waiter {
        public static void main(String[] args) throws Exception {
            Files.writeString(Path.of(args[0], "waiter"), "ran");
            System.out.println("ready");
            System.in.read();
        }
    }
}
