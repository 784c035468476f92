package dev.reprise.cli;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.lang.ProcessBuilder.Redirect;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import dev.reprise.cli.debug.OutputSplice;
import dev.reprise.cli.debug.StopAt;
import dev.reprise.core.config.AgentConfig;
import dev.reprise.core.config.Encodings;

/**
 * Starts the replay's JVM: the recorded command with the agent, its configuration and the
 * recorded working directory. {@code replay} starts one; under a debugger the proxy starts another
 * each time the debugger goes back, with the same options and its own stop. Under a debugger the
 * program's output passes through {@link OutputSplice}s, so that the recorded output is shown
 * once however many JVMs print it.
 */
final class ReplayLaunch {
    /** How long a message waits for the output before it, at most: a JVM that still runs may print on. */
    private static final long SETTLE_MILLIS = 1000;

    private final JavaCommand java;
    private final LocalJdk jdk;
    private final String cwd;
    /** The recorded JVM's encodings, as options ({@link Encodings}). */
    private final List<String> encodings;
    private final AgentConfig.Builder config;
    private final ProgramIo io;
    private final OutputSplice out;
    private final OutputSplice err;
    /** The threads copying each spliced JVM's output, to wait for once it has ended. */
    private final Map<Process, List<Thread>> copying = new ConcurrentHashMap<>();

    /**
     * {@code config} is completed per launch with its stop; {@code spliced}: the output goes
     * through splices to this process's own stdout and stderr (under a debugger), else as
     * {@code io} says.
     */
    ReplayLaunch(JavaCommand java, LocalJdk jdk, String cwd, List<String> encodings, AgentConfig.Builder config,
                 ProgramIo io, boolean spliced) {
        this.java = java;
        this.jdk = jdk;
        this.cwd = cwd;
        this.encodings = List.copyOf(encodings);
        this.config = config;
        this.io = io;
        this.out = spliced ? new OutputSplice(new FileOutputStream(FileDescriptor.out)) : null;
        this.err = spliced ? new OutputSplice(new FileOutputStream(FileDescriptor.err)) : null;
    }

    /** The first JVM's command line (for a message if it cannot start). */
    String executable() {
        return jdk.java().toString();
    }

    /** Starts a replay JVM stopping where {@code stop} says (null: nowhere), with {@code jdwpOption} if not null. */
    Process start(StopAt stop, String jdwpOption) throws IOException {
        String encoded;
        // The builder is shared by the first launch (the command's thread) and the proxy's relaunches.
        synchronized (config) {
            encoded = config.stopAt(stop == null ? null : stop.agentSpec()).build().encode();
        }
        List<String> jvmOptions = new ArrayList<>();
        // File.getAbsolutePath() and friends use the directory the JVM started in: give them the recorded one.
        jvmOptions.add("-Duser.dir=" + cwd);
        jvmOptions.addAll(encodings);
        if (jdwpOption != null) {
            jvmOptions.add(jdwpOption);
        }
        List<String> argv = java.withAgent(executable(), JavaCommand.agentJar(), encoded, jvmOptions);
        ProcessBuilder pb = new ProcessBuilder(argv);
        if (out != null) {
            pb.redirectOutput(Redirect.PIPE).redirectError(Redirect.PIPE);
        } else {
            pb.redirectOutput(io.out()).redirectError(io.err());
        }
        // Relative class paths resolve where the program ran; elsewhere, from here.
        Path dir = Path.of(cwd);
        if (Files.isDirectory(dir)) {
            pb.directory(dir.toFile());
        }
        Process p = pb.start();
        p.getOutputStream().close(); // the program's input comes from the recording
        if (out != null) {
            copying.put(p, List.of(out.copy(p.getInputStream(), "reprise-stdout"), err.copy(p.getErrorStream(), "reprise-stderr")));
        }
        io.started().accept(p);
        return p;
    }

    /**
     * Says {@code message} as Reprise's, after what the replay's JVMs printed so far is shown (under
     * a debugger, the proxy speaks when the JVM has stopped, while its output may still be in the
     * pipes, and a message once landed inside the line the program was printing).
     */
    void say(String message) {
        if (out != null) {
            try {
                out.settle(SETTLE_MILLIS);
                err.settle(SETTLE_MILLIS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        Main.say(message);
    }

    /** Waits until all that the ended JVM {@code p} printed is shown. */
    void drained(Process p) throws InterruptedException {
        for (Thread t : copying.getOrDefault(p, List.of())) {
            t.join();
        }
    }
}
