package corpus.single;

import java.net.InetAddress;
import java.util.TreeMap;

/** The process's environment: variables, properties that differ between machines, CPUs, memory, host, PID. */
public final class MachineFacts {
    public static void main(String[] args) throws Exception {
        System.out.println("HOME              " + System.getenv("HOME"));
        System.out.println("PATH set          " + (System.getenv("PATH") != null));
        System.out.println("variables         " + new TreeMap<>(System.getenv()).keySet().hashCode());
        for (String p : new String[] {"user.dir", "user.name", "user.home", "java.io.tmpdir", "os.version", "java.home"}) {
            System.out.printf("%-17s %s%n", p, System.getProperty(p));
        }
        System.out.println("absolute path     " + new java.io.File("x").getAbsolutePath());
        Runtime rt = Runtime.getRuntime();
        System.out.println("processors        " + rt.availableProcessors());
        System.out.println("memory            " + rt.freeMemory() + " " + rt.totalMemory() + " " + rt.maxMemory());
        System.out.println("host              " + InetAddress.getLocalHost().getHostName());
        System.out.println("pid               " + ProcessHandle.current().pid());
    }
}
