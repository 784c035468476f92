package dev.reprise.cli.conformance;

import java.io.File;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

import dev.reprise.cli.bench.ProcessWatch;

/**
 * Runs a command to its end or its deadline, in a given directory, its output captured to files,
 * with {@code jdk} as {@code JAVA_HOME} and first on the {@code PATH}: {@code reprise replay} runs
 * the local JDK it finds there, which must be the one the program was recorded on.
 */
record Launch(int status, boolean timedOut, long nanos) {
    static Launch run(List<String> command, Jdk jdk, Path cwd, Path out, Path err, long timeoutNanos)
            throws IOException, InterruptedException {
        long start = System.nanoTime();
        ProcessBuilder pb = new ProcessBuilder(command).directory(cwd.toFile())
                .redirectOutput(out.toFile()).redirectError(err.toFile());
        pb.environment().put("JAVA_HOME", jdk.home().toString());
        pb.environment().put("PATH", jdk.home().resolve("bin") + File.pathSeparator + pb.environment().getOrDefault("PATH", ""));
        Process p = pb.start();
        p.getOutputStream().close();
        ProcessWatch watch = ProcessWatch.start(p, timeoutNanos);
        int status = p.waitFor();
        watch.finish();
        return new Launch(status, watch.timedOut(), System.nanoTime() - start);
    }

    double seconds() {
        return nanos / 1e9;
    }
}
