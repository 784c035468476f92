package dev.reprise.agent.ops.files;

import java.io.File;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodType;

import dev.reprise.agent.runtime.events.Digest;
import dev.reprise.agent.runtime.jdk.JdkFiles;
import dev.reprise.agent.runtime.jdk.JdkMethods;

/**
 * What the {@code java.io.File} hooks share. {@code File} reaches the disk only through
 * {@code java.io.UnixFileSystem}, a package-private class: hooks take it as {@code Object}, and
 * run its methods through handles typed the same way.
 */
final class UnixFileSystemCalls {
    static final String UFS = "java/io/UnixFileSystem";
    /** The declared type of {@code File}'s file system field: the owner at {@code File}'s call sites. */
    static final String FS = "java/io/FileSystem";
    static final String FILE = "java/io/File";

    private static final Class<?> UFS_CLASS = JdkMethods.jdkClass("java.io.UnixFileSystem");

    private UnixFileSystemCalls() {
    }

    /** {@code UnixFileSystem.name}, non-virtual, taking the file system as {@code Object}. */
    static MethodHandle handle(String name, Class<?> ret, Class<?>... params) {
        MethodHandle mh = JdkMethods.special(UFS_CLASS, name, MethodType.methodType(ret, params));
        return mh.asType(mh.type().changeParameterType(0, Object.class));
    }

    static String path(File f) {
        return f == null ? null : f.getPath();
    }

    static int digest(File f) {
        return Digest.of(path(f));
    }

    /** The JDK's own files are queried live and not logged, like {@link JdkFiles} streams. */
    static boolean isJdk(File f) {
        return JdkFiles.isJdkPath(path(f));
    }

    /** A JDK file as seen by the running JDK. */
    static File live(File f) {
        String p = f.getPath();
        String live = JdkFiles.live(p);
        return live.equals(p) ? f : new File(live);
    }
}
