package dev.reprise.core.config;

import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.zip.CRC32C;

/**
 * Where a run's class cache keeps what it reads: the CLI checks that subtree before the agent
 * loads code from it (CacheTrust), and the agent's ClassCache writes and reads there. A cache
 * directory holds {@code classes/<build>/<jdk>/} per agent build, named by a checksum of the
 * agent jar, so a rebuilt agent never reads another's entries.
 */
public final class CacheLayout {
    private CacheLayout() {
    }

    /** The directory of all agent builds' entries under the cache directory {@code cacheDir}. */
    public static Path builds(Path cacheDir) {
        return cacheDir.resolve("classes");
    }

    /** The directory of the entries that {@code agentJar} reads and writes, for every JDK. */
    public static Path build(Path cacheDir, Path agentJar) throws IOException {
        CRC32C crc = new CRC32C();
        try (InputStream in = new FileInputStream(agentJar.toFile())) {
            byte[] buffer = new byte[1 << 14];
            for (int n; (n = in.read(buffer)) > 0; ) {
                crc.update(buffer, 0, n);
            }
        }
        return builds(cacheDir).resolve(Long.toHexString(crc.getValue()));
    }
}
