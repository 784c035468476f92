package dev.reprise.cli;

import java.nio.file.Path;
import java.util.Map;

/**
 * Where the agent keeps the JDK classes it instrumented, so the next run on the same JDK loads
 * them instead of instrumenting again: {@code $REPRISE_CACHE_DIR} (empty: no cache), else
 * {@code $XDG_CACHE_HOME/reprise}, else {@code ~/.cache/reprise}.
 */
final class CacheDir {
    private CacheDir() {
    }

    static Path resolve(Map<String, String> env) {
        String explicit = env.get("REPRISE_CACHE_DIR");
        if (explicit != null) {
            return explicit.isEmpty() ? null : Path.of(explicit).toAbsolutePath();
        }
        String xdg = env.get("XDG_CACHE_HOME");
        if (xdg != null && !xdg.isEmpty()) {
            return Path.of(xdg, "reprise").toAbsolutePath();
        }
        String home = env.get("HOME");
        return home == null || home.isEmpty() ? null : Path.of(home, ".cache", "reprise");
    }
}
