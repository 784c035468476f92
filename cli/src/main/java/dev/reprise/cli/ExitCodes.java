package dev.reprise.cli;

/** Reprise's own exit statuses; otherwise {@code record} and {@code replay} exit with the program's. */
public final class ExitCodes {
    public static final int USAGE = 2;
    public static final int DIVERGED = 3;
    public static final int CORRUPT = 4;

    private ExitCodes() {
    }
}
