package dev.reprise.agent.ops.files;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodType;
import java.net.MalformedURLException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Path;
import java.util.function.Function;
import java.util.jar.JarFile;
import java.util.stream.Stream;

import dev.reprise.agent.ops.Prologue;
import dev.reprise.agent.runtime.jdk.JdkMethods;

/**
 * ZIP archives the JDK reads through {@code ZipFile}: class path jars above all. Any thread reads
 * them whenever it first loads a class or resource, and a recording's agent start-up may open a
 * jar that its replay opens only later, so their files are read live and never logged: opening
 * a class path jar (which first asks {@code File.exists}), opening an archive's
 * {@code RandomAccessFile}, and reading or closing it.
 */
public final class ArchiveOps {
    private static final String SOURCE = "java/util/zip/ZipFile$Source";
    private static final String SOURCE_NAME = "java.util.zip.ZipFile$Source";

    private static final MethodType READ_AT = MethodType.methodType(int.class, byte[].class, int.class, int.class, long.class);
    private static final MethodHandle READ_FULLY_AT_LIVE = handle(SOURCE_NAME, "readFullyAt", READ_AT);
    private static final MethodHandle READ_AT_LIVE = handle(SOURCE_NAME, "readAt", READ_AT);
    private static final MethodHandle CLOSE_LIVE = handle(SOURCE_NAME, "close", MethodType.methodType(void.class));
    private static final MethodHandle JAR_LOADER_OPEN_LIVE = handle("jdk.internal.loader.URLClassPath$JarLoader",
            "getJarFile", MethodType.methodType(JarFile.class, URL.class));

    /** The hook, {@code RandomAccessFile.open} and its two constructors sit between a ZIP source and this walk. */
    private static final Function<Stream<StackWalker.StackFrame>, Boolean> FROM_SOURCE =
            frames -> frames.limit(8).anyMatch(f -> SOURCE_NAME.equals(f.getClassName()));
    private static final StackWalker WALKER = StackWalker.getInstance();

    private ArchiveOps() {
    }

    /** A private method of a JDK class that hooks cannot name: the receiver is typed {@code Object}. */
    private static MethodHandle handle(String className, String name, MethodType type) {
        MethodHandle mh = JdkMethods.special(JdkMethods.jdkClass(className), name, type);
        return mh.asType(mh.type().changeParameterType(0, Object.class));
    }

    /** True when the calling {@code RandomAccessFile} is being opened, or closed, by a ZIP source. */
    static boolean archiveAtWork() {
        return WALKER.walk(FROM_SOURCE);
    }

    @Prologue(owner = "jdk/internal/loader/URLClassPath$JarLoader", method = "getJarFile",
            desc = "(Ljava/net/URL;)Ljava/util/jar/JarFile;")
    public static JarFile openClassPathJar(Object loader, URL url) throws Throwable {
        return (JarFile) JAR_LOADER_OPEN_LIVE.invokeExact(loader, loaded(url));
    }

    /** The URL of the jar to open: a copy's on replay, for a jar the program wrote ({@link ArchiveCopies#loaded}). */
    private static URL loaded(URL url) {
        if (!"file".equals(url.getProtocol())) {
            return url;
        }
        try {
            String path = Path.of(url.toURI()).toString();
            String file = ArchiveCopies.loaded(path);
            return file.equals(path) ? url : Path.of(file).toUri().toURL();
        } catch (URISyntaxException | IllegalArgumentException | MalformedURLException e) {
            return url; // a URL the JDK's own mapping reads as it can
        }
    }

    @Prologue(owner = SOURCE, method = "readFullyAt", desc = "([BIIJ)I")
    public static int readFullyAt(Object source, byte[] b, int off, int len, long pos) throws Throwable {
        return read(READ_FULLY_AT_LIVE, source, b, off, len, pos);
    }

    @Prologue(owner = SOURCE, method = "readAt", desc = "([BIIJ)I")
    public static int readAt(Object source, byte[] b, int off, int len, long pos) throws Throwable {
        return read(READ_AT_LIVE, source, b, off, len, pos);
    }

    private static int read(MethodHandle live, Object source, byte[] b, int off, int len, long pos) throws Throwable {
        return (int) live.invokeExact(source, b, off, len, pos);
    }

    @Prologue(owner = SOURCE, method = "close", desc = "()V")
    public static void close(Object source) throws Throwable {
        CLOSE_LIVE.invokeExact(source);
    }
}
