package corpus.process;

import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * Runs real tools as child processes, through every part of the Process API: piped stdout and
 * stderr, both merged, redirected to a file, and inherited; writing to a child's stdin; exit
 * statuses; waiting with and without a timeout; isAlive, destroy and destroyForcibly; the pid and
 * the child's ProcessHandle (info, onExit); Runtime.exec. Each child also touches a marker file
 * in {@code args[0]}, a directory, so a test can tell whether any child ran.
 */
public final class Tools {
    public static void main(String[] args) throws Exception {
        Path markers = Path.of(args[0]);
        System.out.println("date: " + output(sh(markers, "date", "date +%s%N")));

        Process cat = start(markers, "cat", "cat");
        try (OutputStream in = cat.getOutputStream()) {
            in.write("through cat\nsecond line\n".getBytes(StandardCharsets.UTF_8));
        }
        System.out.println("cat: " + output(cat).replace('\n', '|') + " status " + cat.waitFor());

        Process both = start(markers, "both", "echo to-out; echo to-err >&2; exit 3");
        String err = new String(both.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        System.out.println("out: " + output(both) + "err: " + err + "status " + both.waitFor()
                + " exitValue " + both.exitValue() + " alive " + both.isAlive());

        Process merged = builder(markers, "merged", "echo one; echo two >&2; echo three").redirectErrorStream(true).start();
        System.out.println("merged: " + output(merged).replace('\n', '|') + " status " + merged.waitFor());

        Path dir = Files.createTempDirectory("tools");
        Files.writeString(dir.resolve("b.txt"), "b");
        Files.writeString(dir.resolve("a.txt"), "a");
        Path listing = dir.resolve("listing");
        Process ls = builder(markers, "ls", "ls " + dir).redirectOutput(listing.toFile()).start();
        System.out.println("ls status " + ls.waitFor() + ": " + Files.readString(listing).replace('\n', '|'));

        System.out.println("before the inherited child");
        Process inherited = builder(markers, "inherit", "echo inherited out; echo inherited err >&2").inheritIO().start();
        System.out.println("inherited status " + inherited.waitFor());

        Process sleeper = start(markers, "sleeper", "echo ready; exec sleep 30");
        System.out.println("sleeper " + firstLine(sleeper));
        System.out.println("timed wait " + sleeper.waitFor(50, TimeUnit.MILLISECONDS) + " alive " + sleeper.isAlive());
        ProcessHandle handle = sleeper.toHandle();
        System.out.println("handle pid matches " + (handle.pid() == sleeper.pid()) + ", pid " + sleeper.pid()
                + ", command " + handle.info().command().map(c -> Path.of(c).getFileName()).orElse(null)
                + ", alive " + handle.isAlive());
        try {
            sleeper.exitValue();
        } catch (IllegalThreadStateException e) {
            System.out.println("exitValue: " + e.getMessage());
        }
        sleeper.destroy();
        System.out.println("destroyed, onExit " + sleeper.onExit().get().exitValue() + ", handle onExit "
                + handle.onExit().get().isAlive());

        Process stubborn = start(markers, "stubborn", "trap '' TERM; echo ready; exec sleep 30");
        System.out.println("stubborn " + firstLine(stubborn));
        stubborn.destroyForcibly();
        System.out.println("forcibly " + stubborn.waitFor(10, TimeUnit.SECONDS) + " status " + stubborn.exitValue());

        Process exec = Runtime.getRuntime().exec(new String[] {"sh", "-c", "touch " + markers.resolve("exec") + "; echo exec $0", "x"});
        System.out.println(output(exec).trim() + ", status " + exec.waitFor());

        try {
            new ProcessBuilder("/no/such/tool").start();
        } catch (java.io.IOException e) {
            System.out.println("missing tool: " + e.getMessage());
        }
    }

    private static ProcessBuilder builder(Path markers, String name, String script) {
        return new ProcessBuilder("sh", "-c", "touch " + markers.resolve(name) + "; " + script);
    }

    private static Process start(Path markers, String name, String script) throws Exception {
        return builder(markers, name, script).start();
    }

    private static Process sh(Path markers, String name, String script) throws Exception {
        return start(markers, name, script);
    }

    /** The child's first line: once it is read, the child runs and touched its marker. */
    private static String firstLine(Process p) throws Exception {
        return new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8)).readLine();
    }

    private static String output(Process p) throws Exception {
        StringBuilder s = new StringBuilder();
        InputStream in = p.getInputStream();
        try (BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
            for (String line; (line = r.readLine()) != null;) {
                s.append(line).append('\n');
            }
        }
        return s.toString();
    }
}
