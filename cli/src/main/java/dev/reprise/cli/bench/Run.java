package dev.reprise.cli.bench;

/**
 * One run of a workload in one mode: wall time, the program JVM's peak resident memory, the
 * recording's size (record modes), and {@code failure}, why the run does not count, or {@code null}.
 */
public record Run(String workload, Mode mode, int iteration, boolean warmUp, long wallNanos, long peakRssKb,
                  int status, String stdoutSha, long logBytes, String failure) {
    public boolean ok() {
        return failure == null;
    }

    public double seconds() {
        return wallNanos / 1e9;
    }
}
