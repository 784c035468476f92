package dev.reprise.agent.instrument;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32C;

/**
 * JDK classes as instrumented by an earlier run on the same JDK (DESIGN, "Interception": a
 * per-JDK cache). Instrumenting the JDK is most of the agent's start-up; a cached class is a file
 * read. The cache only saves work: whatever fails here, the class is instrumented as before.
 *
 * <p>An entry's directory is named by a checksum of the agent jar and by the JDK's version and
 * home, so a rebuilt agent or another JDK never reads another's entries (the instrumentation of
 * a class also depends on its JDK superclasses). Its file is named by the class, whether it is
 * being loaded or retransformed, and a checksum of the bytes the JVM gave. It holds a magic
 * number, a checksum of the rest, the names of the call sites the instrumentation registered
 * (for divergence reports), and the class bytes. A damaged entry is ignored and rewritten.
 * Entries are written to a temporary file and moved into place, so concurrent runs never read
 * half of one.
 */
final class ClassCache {
    private static final int MAGIC = 0x52504331;

    private final Path dir;

    private ClassCache(Path dir) {
        this.dir = dir;
    }

    /** The cache under {@code root} for this agent jar and this JDK, or null if it cannot be used. */
    static ClassCache open(Path root, Path agentJar) {
        if (root == null) {
            return null;
        }
        try {
            CRC32C agent = new CRC32C();
            agent.update(Files.readAllBytes(agentJar));
            CRC32C home = new CRC32C();
            home.update(System.getProperty("java.home").getBytes(java.nio.charset.StandardCharsets.UTF_8));
            String jdk = System.getProperty("java.runtime.version").replaceAll("[^A-Za-z0-9._-]", "_");
            Path dir = root.resolve("classes").resolve(Long.toHexString(agent.getValue()))
                    .resolve(jdk + "-" + Long.toHexString(home.getValue()));
            Files.createDirectories(dir);
            return new ClassCache(dir);
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /** A cached class: its bytes, and the call-site names its instrumentation registered. */
    record Entry(byte[] bytes, List<String> sites) {
    }

    Entry get(String name, boolean firstLoad, byte[] input) {
        Path file = file(name, firstLoad, input);
        try {
            byte[] raw = Files.readAllBytes(file);
            ByteBuffer b = ByteBuffer.wrap(raw);
            if (raw.length < 12 || b.getInt() != MAGIC) {
                return null;
            }
            long sum = b.getInt() & 0xFFFFFFFFL;
            CRC32C crc = new CRC32C();
            crc.update(raw, 8, raw.length - 8);
            if (crc.getValue() != sum) {
                return null;
            }
            DataInputStream in = new DataInputStream(new java.io.ByteArrayInputStream(raw, 8, raw.length - 8));
            int n = in.readInt();
            List<String> sites = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                sites.add(in.readUTF());
            }
            byte[] bytes = new byte[in.readInt()];
            in.readFully(bytes);
            return new Entry(bytes, sites);
        } catch (IOException | RuntimeException e) {
            return null; // absent or damaged: instrument anew
        }
    }

    void put(String name, boolean firstLoad, byte[] input, Entry entry) {
        Path file = file(name, firstLoad, input);
        try {
            ByteArrayOutputStream body = new ByteArrayOutputStream(entry.bytes().length + 1024);
            DataOutputStream out = new DataOutputStream(body);
            out.writeInt(entry.sites().size());
            for (String s : entry.sites()) {
                out.writeUTF(s);
            }
            out.writeInt(entry.bytes().length);
            out.write(entry.bytes());
            byte[] rest = body.toByteArray();
            CRC32C crc = new CRC32C();
            crc.update(rest);
            ByteBuffer head = ByteBuffer.allocate(8).putInt(MAGIC).putInt((int) crc.getValue());
            Path tmp = Files.createTempFile(dir, ".entry", ".tmp");
            try {
                Files.write(tmp, concat(head.array(), rest));
                Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } finally {
                Files.deleteIfExists(tmp);
            }
        } catch (IOException | RuntimeException e) {
            // not cached: the next run instruments the class again
        }
    }

    private Path file(String name, boolean firstLoad, byte[] input) {
        CRC32C crc = new CRC32C();
        crc.update(input);
        return dir.resolve(name.replace('/', '.') + (firstLoad ? ".load." : ".retransform.")
                + Long.toHexString(crc.getValue()));
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] r = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, r, a.length, b.length);
        return r;
    }
}
