package dev.reprise.agent.instrument;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URL;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.jar.JarFile;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * Reads the class file of a class the transformer must know about without loading it. A class in
 * a jar is read from Reprise's own handle on the jar, opened without verification. Through the
 * class loader's resource stream, the JDK would open the jar anew and verify a signed jar's
 * signatures, loading its security and {@code java.time} classes the first time: the JVM does
 * not pass a class loaded during a transformation to the transformer, so those classes would stay
 * uninstrumented for the whole run (PMD's signed Saxon jar left {@code ZoneOffset}'s cache calls
 * ordered, and replays diverged). That path would also put the jar in the JDK's jar cache, which
 * the program shares.
 */
final class ClassFiles {
    private static final Map<String, JarFile> JARS = new ConcurrentHashMap<>();

    private ClassFiles() {
    }

    /** The class file of {@code name} as {@code loader} (null: the boot loader) would find it, or null. */
    static InputStream open(ClassLoader loader, String name) throws IOException {
        String resource = name + ".class";
        URL url = loader != null ? loader.getResource(resource) : ClassLoader.getSystemResource(resource);
        if (url == null) {
            return null;
        }
        String path = url.getPath();
        int separator = path.indexOf("!/");
        if (!url.getProtocol().equals("jar") || !path.startsWith("file:") || separator < 0) {
            return url.openStream();
        }
        JarFile jar;
        try {
            jar = JARS.computeIfAbsent(path.substring(0, separator), ClassFiles::openJar);
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
        ZipEntry entry = jar.getEntry(resource);
        return entry == null ? null : jar.getInputStream(entry);
    }

    private static JarFile openJar(String fileUrl) {
        try {
            return new JarFile(new File(URI.create(fileUrl)), false, ZipFile.OPEN_READ, JarFile.runtimeVersion());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
