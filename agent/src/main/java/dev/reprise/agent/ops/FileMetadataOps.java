package dev.reprise.agent.ops;

import static dev.reprise.agent.ops.UnixFileSystemCalls.FILE;
import static dev.reprise.agent.ops.UnixFileSystemCalls.FS;
import static dev.reprise.agent.ops.UnixFileSystemCalls.UFS;
import static dev.reprise.agent.ops.UnixFileSystemCalls.digest;
import static dev.reprise.agent.ops.UnixFileSystemCalls.handle;
import static dev.reprise.agent.ops.UnixFileSystemCalls.isJdk;
import static dev.reprise.agent.ops.UnixFileSystemCalls.live;

import java.io.File;
import java.lang.invoke.MethodHandle;

import dev.reprise.agent.runtime.Digest;
import dev.reprise.agent.runtime.Ev;
import dev.reprise.agent.runtime.JdkFiles;
import dev.reprise.agent.runtime.Op;
import dev.reprise.agent.runtime.Rt;

/**
 * What {@code java.io.File} asks the disk without changing it: existence and type, access,
 * times, sizes, directory listings (whose order is the file system's, and differs between
 * machines), canonical paths, free space and the longest name a directory takes (which shapes
 * temp-file names). Replay answers from the recording. Methods that are Java in both JDK 17
 * and 25 get prologues in {@code UnixFileSystem}; those native in 17 are hooked at
 * {@code File}'s calls, which go through the abstract {@code FileSystem} in every version.
 */
public final class FileMetadataOps {
    private static final Op HAS_ATTRIBUTES = Op.named("file.attr.has");
    private static final Op ATTRIBUTES = Op.named("file.attr.get");
    private static final Op ACCESS = Op.named("file.access");
    private static final Op MODIFIED = Op.named("file.mtime");
    private static final Op LENGTH = Op.named("file.length");
    private static final Op LIST = Op.named("file.list");
    private static final Op CANONICAL = Op.named("file.canonical");
    private static final Op SPACE = Op.named("file.space");
    private static final Op NAME_MAX = Op.named("file.namemax");

    /** The live operations' handles, made on first use ({@link JdkMethods}). */
    private static final class Live {
        static {
            Rt.suppress();
        }
        static final MethodHandle HAS_ATTRIBUTES = handle("hasBooleanAttributes", boolean.class, File.class, int.class);
        static final MethodHandle ATTRIBUTES = handle("getBooleanAttributes", int.class, File.class);
        static final MethodHandle ACCESS = handle("checkAccess", boolean.class, File.class, int.class);
        static final MethodHandle MODIFIED = handle("getLastModifiedTime", long.class, File.class);
        static final MethodHandle LENGTH = handle("getLength", long.class, File.class);
        static final MethodHandle LIST = handle("list", String[].class, File.class);
        static final MethodHandle CANONICAL = handle("canonicalize", String.class, String.class);
        static final MethodHandle SPACE = handle("getSpace", long.class, File.class, int.class);
        static final MethodHandle NAME_MAX = handle("getNameMax", int.class, String.class);
        static {
            Rt.unsuppress();
        }

        private Live() {
        }
    }

    private FileMetadataOps() {
    }

    /** {@code exists}, {@code isFile}, {@code isDirectory}, {@code isHidden}, and the temp-file name loop. */
    @Prologue(owner = UFS, method = "hasBooleanAttributes", desc = "(Ljava/io/File;I)Z")
    public static boolean hasBooleanAttributes(Object fs, File f, int attributes) throws Throwable {
        return test(HAS_ATTRIBUTES, 0, Live.HAS_ATTRIBUTES, fs, f, attributes);
    }

    @Prologue(owner = UFS, method = "getBooleanAttributes", desc = "(Ljava/io/File;)I")
    public static int getBooleanAttributes(Object fs, File f) throws Throwable {
        if (isJdk(f)) {
            try {
                return (int) Live.ATTRIBUTES.invokeExact(fs, live(f));
            } finally {
                Rt.release();
            }
        }
        Ev ev = Ev.begin(ATTRIBUTES, 0, digest(f));
        try {
            return ev.i(ev.live() ? (int) Live.ATTRIBUTES.invokeExact(fs, f) : 0);
        } catch (Throwable t) {
            throw ev.threw(t);
        } finally {
            ev.end();
        }
    }

    /** {@code canRead}, {@code canWrite}, {@code canExecute}. */
    @CallSite(kind = CallSite.Kind.VIRTUAL, owner = FS, method = "checkAccess", desc = "(Ljava/io/File;I)Z", alsoIn = FILE)
    public static boolean checkAccess(Object fs, File f, int access, int site) throws Throwable {
        if (!Rt.claim()) {
            return (boolean) Live.ACCESS.invokeExact(fs, f, access);
        }
        return test(ACCESS, site, Live.ACCESS, fs, f, access);
    }

    /** A yes-or-no question about {@code f} with an int argument: {@code (File, int)boolean}. */
    private static boolean test(Op op, int site, MethodHandle call, Object fs, File f, int arg) throws Throwable {
        if (isJdk(f)) {
            try {
                return (boolean) call.invokeExact(fs, live(f), arg);
            } finally {
                Rt.release();
            }
        }
        Ev ev = Ev.begin(op, site, digest(f) ^ arg);
        try {
            return ev.z(ev.live() && (boolean) call.invokeExact(fs, f, arg));
        } catch (Throwable t) {
            throw ev.threw(t);
        } finally {
            ev.end();
        }
    }

    @CallSite(kind = CallSite.Kind.VIRTUAL, owner = FS, method = "getLastModifiedTime", desc = "(Ljava/io/File;)J", alsoIn = FILE)
    public static long getLastModifiedTime(Object fs, File f, int site) throws Throwable {
        if (!Rt.claim()) {
            return (long) Live.MODIFIED.invokeExact(fs, f);
        }
        return number(MODIFIED, site, Live.MODIFIED, fs, f);
    }

    @CallSite(kind = CallSite.Kind.VIRTUAL, owner = FS, method = "getLength", desc = "(Ljava/io/File;)J", alsoIn = FILE)
    public static long getLength(Object fs, File f, int site) throws Throwable {
        if (!Rt.claim()) {
            return (long) Live.LENGTH.invokeExact(fs, f);
        }
        return number(LENGTH, site, Live.LENGTH, fs, f);
    }

    /** A number about {@code f}: {@code (File)long}. */
    private static long number(Op op, int site, MethodHandle call, Object fs, File f) throws Throwable {
        if (isJdk(f)) {
            try {
                return (long) call.invokeExact(fs, live(f));
            } finally {
                Rt.release();
            }
        }
        Ev ev = Ev.begin(op, site, digest(f));
        try {
            return ev.j(ev.live() ? (long) call.invokeExact(fs, f) : 0);
        } catch (Throwable t) {
            throw ev.threw(t);
        } finally {
            ev.end();
        }
    }

    /** {@code list} and {@code listFiles}: the names in the order the recording's file system gave them. */
    @CallSite(kind = CallSite.Kind.VIRTUAL, owner = FS, method = "list", desc = "(Ljava/io/File;)[Ljava/lang/String;", alsoIn = FILE)
    public static String[] list(Object fs, File f, int site) throws Throwable {
        if (!Rt.claim()) {
            return (String[]) Live.LIST.invokeExact(fs, f);
        }
        if (isJdk(f)) {
            try {
                return (String[]) Live.LIST.invokeExact(fs, live(f));
            } finally {
                Rt.release();
            }
        }
        Ev ev = Ev.begin(LIST, site, digest(f));
        try {
            String[] live = ev.live() ? (String[]) Live.LIST.invokeExact(fs, f) : null;
            int n = ev.i(live == null ? -1 : live.length);
            if (n < 0) {
                return null;
            }
            String[] names = live != null ? live : new String[n];
            for (int i = 0; i < n; i++) {
                names[i] = ev.s(names[i]);
            }
            return names;
        } catch (Throwable t) {
            throw ev.threw(t);
        } finally {
            ev.end();
        }
    }

    /** {@code getCanonicalPath} and {@code getCanonicalFile}: the path is already absolute. */
    @Prologue(owner = UFS, method = "canonicalize", desc = "(Ljava/lang/String;)Ljava/lang/String;")
    public static String canonicalize(Object fs, String path) throws Throwable {
        if (JdkFiles.isJdkPath(path)) {
            try {
                return (String) Live.CANONICAL.invokeExact(fs, JdkFiles.live(path));
            } finally {
                Rt.release();
            }
        }
        Ev ev = Ev.begin(CANONICAL, 0, Digest.of(path));
        try {
            return ev.s(ev.live() ? (String) Live.CANONICAL.invokeExact(fs, path) : null);
        } catch (Throwable t) {
            throw ev.threw(t);
        } finally {
            ev.end();
        }
    }

    /** {@code getTotalSpace}, {@code getFreeSpace}, {@code getUsableSpace}. */
    @CallSite(kind = CallSite.Kind.VIRTUAL, owner = FS, method = "getSpace", desc = "(Ljava/io/File;I)J", alsoIn = FILE)
    public static long getSpace(Object fs, File f, int t, int site) throws Throwable {
        if (!Rt.claim()) {
            return (long) Live.SPACE.invokeExact(fs, f, t);
        }
        Ev ev = Ev.begin(SPACE, site, digest(f) ^ t);
        try {
            return ev.j(ev.live() ? (long) Live.SPACE.invokeExact(fs, f, t) : 0);
        } catch (Throwable e) {
            throw ev.threw(e);
        } finally {
            ev.end();
        }
    }

    /** Temp-file names are shortened to what the temp directory's file system takes. */
    @Prologue(owner = UFS, method = "getNameMax", desc = "(Ljava/lang/String;)I")
    public static int getNameMax(Object fs, String path) throws Throwable {
        Ev ev = Ev.begin(NAME_MAX, 0, Digest.of(path));
        try {
            return ev.i(ev.live() ? (int) Live.NAME_MAX.invokeExact(fs, path) : 0);
        } catch (Throwable t) {
            throw ev.threw(t);
        } finally {
            ev.end();
        }
    }
}
