package dev.reprise.cli.conformance;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

import dev.reprise.cli.bench.ProcessWatch;

/** Runs a command to its end or its deadline, in a given directory, its output captured to files. */
record Launch(int status, boolean timedOut, long nanos) {
    static Launch run(List<String> command, Path cwd, Path out, Path err, long timeoutNanos)
            throws IOException, InterruptedException {
        long start = System.nanoTime();
        Process p = new ProcessBuilder(command).directory(cwd.toFile())
                .redirectOutput(out.toFile()).redirectError(err.toFile()).start();
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
