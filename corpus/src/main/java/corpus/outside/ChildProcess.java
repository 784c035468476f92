package corpus.outside;

import java.nio.file.Path;

/** Starts a child JVM of its own JDK, which creates the marker file {@code args[0]}, and waits for it. */
public final class ChildProcess {
    public static void main(String[] args) throws Exception {
        System.out.println("before the child");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process p = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"), Marker.class.getName(), args[0])
                .inheritIO().start();
        System.out.println("child exited " + p.waitFor());
    }

    /** The child: creates the marker file it is given. */
    public static final class Marker {
        public static void main(String[] args) throws Exception {
            java.nio.file.Files.createFile(Path.of(args[0]));
        }
    }
}
