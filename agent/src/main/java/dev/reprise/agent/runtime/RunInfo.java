package dev.reprise.agent.runtime;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;

/**
 * Small property files the recorder leaves beside its streams for {@code reprise}: the JVM that
 * ran ({@value #JVM}), the operation names by id ({@value #OPS}), and the end marker
 * ({@value #END}) whose presence means the run completed and every stream was flushed.
 */
public final class RunInfo {
    public static final String JVM = "jvm.properties";
    public static final String OPS = "ops.properties";
    public static final String END = "end.properties";

    private RunInfo() {
    }

    static void writeJvm(Path dir) throws IOException {
        Properties p = new Properties();
        for (String k : new String[] {"java.version", "java.vendor", "java.vm.name", "java.home", "os.name", "os.arch"}) {
            p.setProperty(k, System.getProperty(k, ""));
        }
        write(dir.resolve(JVM), p);
    }

    static void writeOps(Path dir) throws IOException {
        Properties p = new Properties();
        for (Map.Entry<Integer, String> e : Op.names().entrySet()) {
            p.setProperty(Integer.toString(e.getKey()), e.getValue());
        }
        write(dir.resolve(OPS), p);
    }

    static void writeEnd(Path dir, Map<String, Long> eventsByThread) throws IOException {
        Properties p = new Properties();
        p.setProperty("completed", "true");
        for (Map.Entry<String, Long> e : new TreeMap<>(eventsByThread).entrySet()) {
            p.setProperty("thread." + e.getKey() + ".events", Long.toString(e.getValue()));
        }
        write(dir.resolve(END), p);
    }

    private static void write(Path file, Properties p) throws IOException {
        Files.deleteIfExists(file);
        Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        try (OutputStream out = Files.newOutputStream(file)) {
            p.store(out, null);
        }
    }
}
