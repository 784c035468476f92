package dev.reprise.agent.instrument;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URL;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
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
public final class ClassFiles {
    private static final Map<String, JarFile> JARS = new ConcurrentHashMap<>();
    // All three set by prepare in premain, before the transformer is installed: the threads that
    // transform are main or started after it, so they see them.
    /** The JDK's application class loader, if it is the system class loader; else null. */
    private static ClassLoader appLoader;
    /** Its class path, in its order. */
    private static List<PathEntry> classPath = List.of();
    /**
     * Where lookups through the application class loader found classes beyond its class path
     * (jars that manifests add, or entries appended at run time): the jars' paths, or "" for
     * anything else ({@link #reach}).
     */
    private static final Set<String> FOUND_BEYOND = ConcurrentHashMap.newKeySet();
    /** The packages of the JDK's modules (internal names), which the application class loader leaves to them. */
    private static Set<String> jdkPackages = Set.of();

    /** A class path entry: a directory, or a jar (any other file). */
    private record PathEntry(File file, boolean directory) {
    }

    private ClassFiles() {
    }

    /**
     * Start-up, before the transformer is installed: reads the class path and the JDK's packages,
     * whose classes must not first load during a transformation.
     */
    static void prepare() {
        List<PathEntry> path = new ArrayList<>();
        for (String entry : System.getProperty("java.class.path", "").split(File.pathSeparator)) {
            File f = new File(entry.isEmpty() ? "." : entry).getAbsoluteFile();
            if (f.exists()) {
                path.add(new PathEntry(f, f.isDirectory()));
            }
        }
        Set<String> packages = new HashSet<>();
        for (Module m : ModuleLayer.boot().modules()) {
            for (String p : m.getPackages()) {
                packages.add(p.replace('.', '/'));
            }
        }
        ClassLoader system = ClassLoader.getSystemClassLoader();
        appLoader = system.getClass().getName().equals("jdk.internal.loader.ClassLoaders$AppClassLoader") ? system : null;
        classPath = List.copyOf(path);
        jdkPackages = Set.copyOf(packages);
    }

    /** The class file of {@code name} as {@code loader} (null: the boot loader) would find it, or null. */
    static InputStream open(ClassLoader loader, String name) throws IOException {
        String resource = name + ".class";
        boolean classPathMiss = false;
        if (isAppLoader(loader)) {
            InputStream in = fromClassPath(name, resource);
            if (in != null) {
                return in;
            }
            classPathMiss = !jdkPackage(name);
        }
        URL url = loader != null ? loader.getResource(resource) : ClassLoader.getSystemResource(resource);
        if (url == null) {
            return null;
        }
        String path = url.getPath();
        int separator = path.indexOf("!/");
        if (!url.getProtocol().equals("jar") || !path.startsWith("file:") || separator < 0) {
            if (classPathMiss) {
                FOUND_BEYOND.add("");
            }
            return url.openStream();
        }
        File jar = new File(URI.create(path.substring(0, separator)));
        if (classPathMiss) {
            FOUND_BEYOND.add(jar.getPath());
        }
        return fromJar(jar, resource);
    }

    /**
     * The application class loader's answer, found the way it finds it (the JDK's modules first,
     * then the class path in order) but without its resource lookup, which asks every JDK module
     * for a name that none of them has. Null if not found this way: the caller asks the loader
     * (class path entries that the manifests of jars add, or that were appended at run time).
     */
    private static InputStream fromClassPath(String name, String resource) throws IOException {
        if (jdkPackage(name)) {
            return null;
        }
        for (PathEntry entry : classPath) {
            if (entry.directory()) {
                File f = new File(entry.file(), resource);
                if (f.isFile()) {
                    return new java.io.FileInputStream(f);
                }
                continue;
            }
            InputStream in;
            try {
                in = fromJar(entry.file(), resource);
            } catch (IOException e) {
                continue; // not a jar: the loader skips it too
            }
            if (in != null) {
                return in;
            }
        }
        return null;
    }

    /** Whether {@code name} is in a package of the JDK's modules (the unnamed package is in none). */
    private static boolean jdkPackage(String name) {
        int slash = name.lastIndexOf('/');
        return slash >= 0 && jdkPackages.contains(name.substring(0, slash));
    }

    /** Whether {@code loader} is the JDK's application class loader, serving the class path. */
    static boolean isAppLoader(ClassLoader loader) {
        return loader != null && loader == appLoader;
    }

    /**
     * The files beyond the class path that the application class loader searches: those the
     * manifests of its jars name, transitively, resolved as the loader resolves them (absent ones
     * too, whose appearance would matter). Null if the loader may have searched more than the class
     * path and these for this run's lookups: a directory among them, another java agent's jar, or
     * a class found elsewhere. Called at exit: it reads every jar's manifest.
     */
    public static List<File> reach() {
        if (LoadedClasses.javaAgents(jdk.internal.misc.VM.getRuntimeArguments()) != 1 || FOUND_BEYOND.contains("")) {
            return null;
        }
        Set<File> seen = new HashSet<>();
        List<File> reach = new ArrayList<>();
        List<File> todo = new ArrayList<>();
        for (PathEntry entry : classPath) {
            seen.add(entry.file());
            if (!entry.directory()) {
                todo.add(entry.file());
            }
        }
        while (!todo.isEmpty()) {
            File jar = todo.remove(todo.size() - 1);
            for (String element : manifestClassPath(jar)) {
                File f;
                try {
                    URI u = jar.toURI().resolve(element);
                    if (!"file".equals(u.getScheme()) || element.endsWith("/")) {
                        return null; // a directory or a remote location: nothing stamps it
                    }
                    f = new File(u);
                } catch (IllegalArgumentException e) {
                    continue; // the loader ignores what it cannot parse too
                }
                if (f.isDirectory()) {
                    return null;
                }
                if (seen.add(f)) {
                    reach.add(f);
                    if (f.isFile()) {
                        todo.add(f);
                    }
                }
            }
        }
        for (String found : FOUND_BEYOND) {
            if (!seen.contains(new File(found))) {
                return null;
            }
        }
        return reach;
    }

    /** The elements of {@code jar}'s manifest {@code Class-Path}; none if it has none or is no jar (the loader skips it too). */
    private static String[] manifestClassPath(File jar) {
        try {
            java.util.jar.Manifest m = JARS.computeIfAbsent(jar.getPath(), k -> openJar(jar)).getManifest();
            String named = m == null ? null : m.getMainAttributes().getValue(java.util.jar.Attributes.Name.CLASS_PATH);
            return named == null ? new String[0] : named.trim().split("\\s+");
        } catch (IOException | UncheckedIOException e) {
            return new String[0];
        }
    }

    private static InputStream fromJar(File file, String resource) throws IOException {
        JarFile jar;
        try {
            jar = JARS.computeIfAbsent(file.getPath(), k -> openJar(file));
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
        ZipEntry entry = jar.getEntry(resource);
        return entry == null ? null : jar.getInputStream(entry);
    }

    private static JarFile openJar(File file) {
        try {
            return new JarFile(file, false, ZipFile.OPEN_READ, JarFile.runtimeVersion());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
