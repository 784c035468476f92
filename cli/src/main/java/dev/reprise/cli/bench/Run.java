package dev.reprise.cli.bench;

/**
 * One run of a workload in one mode: the process's wall time, the time between the marks of its
 * main ({@code timedNanos}, -1 if they did not arrive), the program JVM's peak resident memory, the
 * recording's size (record modes), and {@code failure}, why the run does not count, or {@code null}.
 */
public record Run(String workload, Mode mode, int iteration, boolean warmUp, long wallNanos, long timedNanos,
                  long peakRssKb, int status, String stdoutSha, long logBytes, String failure) {
    public boolean ok() {
        return failure == null;
    }

    public double seconds() {
        return wallNanos / 1e9;
    }

    public double timedSeconds() {
        return timedNanos < 0 ? Double.NaN : timedNanos / 1e9;
    }
}
