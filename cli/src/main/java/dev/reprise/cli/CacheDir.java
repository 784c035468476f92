package dev.reprise.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

import dev.reprise.core.config.CacheLayout;
import dev.reprise.core.config.JdkClassNames;

/**
 * Where the agent keeps the JDK classes it instrumented, so the next run on the same JDK loads
 * them instead of instrumenting again: {@code $REPRISE_CACHE_DIR} (empty: no cache), else
 * {@code $XDG_CACHE_HOME/reprise}, else {@code ~/.cache/reprise}; not used unless private to the
 * user ({@link CacheTrust}).
 */
final class CacheDir {
    private CacheDir() {
    }

    /** The cache's root directory, if there is one and {@link CacheTrust} lets it be used; else null. */
    static Path trusted(Map<String, String> env) {
        Path base = resolve(env);
        return base == null ? null : CacheTrust.usable(base);
    }

    /**
     * The directory of a run under the cache's root {@code base} (null: none) that orders
     * {@code fields} ({@code record --order-field}, or learned), and with {@code watchRaces} looks
     * for races ({@code RaceProfile}): their classes, the classes that use them and, looking for
     * races, the classes that report their field accesses are instrumented differently, so each
     * such run has a directory of its own, named by a digest of the list
     * ({@code OrderFieldOption.parse} sorts it and drops repeats; the manifest keeps it so). Null
     * if the entries the run's agent build would read there are not the user's alone
     * ({@link CacheTrust}).
     */
    static Path forRun(Path base, List<String> fields, boolean watchRaces) {
        if (base == null) {
            return null;
        }
        Path dir = base;
        if (!fields.isEmpty() || watchRaces) {
            try {
                String key = String.join(",", fields) + (watchRaces ? ";races" : "");
                byte[] d = MessageDigest.getInstance("SHA-256").digest(key.getBytes(StandardCharsets.UTF_8));
                dir = base.resolve("fields-" + HexFormat.of().formatHex(d, 0, 8));
            } catch (NoSuchAlgorithmException e) {
                throw new IllegalStateException(e); // every JDK has SHA-256
            }
        }
        try {
            return CacheTrust.trusts(base, CacheLayout.build(dir, JavaCommand.agentJar())) ? dir : null;
        } catch (IOException e) {
            return null; // the agent cannot read its own jar either, and says so
        }
    }

    /**
     * The directory of the same run's JDK classes: the JDK's code names none of the program's
     * classes, so only the fields of JDK classes among {@code fields} (and looking for races,
     * which watches some JDK classes) change how it is instrumented. A program's first recording
     * after it learned a race of its own then finds the JDK as earlier runs left it, where it
     * instrumented the whole JDK again. {@code runDir} is the run's own ({@link #forRun}), which it
     * is when every field is the JDK's, or none is.
     */
    static Path forJdk(Path base, List<String> fields, boolean watchRaces, Path runDir) {
        List<String> jdk = new ArrayList<>();
        for (String f : fields) {
            if (JdkClassNames.isJdk(f.substring(0, Math.max(f.lastIndexOf('.'), 0)))) {
                jdk.add(f);
            }
        }
        return jdk.size() == fields.size() ? runDir : forRun(base, jdk, watchRaces);
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
