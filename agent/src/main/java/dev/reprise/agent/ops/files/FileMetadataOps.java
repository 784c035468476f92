package dev.reprise.agent.ops.files;

import static dev.reprise.agent.ops.files.UnixFileSystemCalls.FILE;
import static dev.reprise.agent.ops.files.UnixFileSystemCalls.FS;
import static dev.reprise.agent.ops.files.UnixFileSystemCalls.UFS;
import static dev.reprise.agent.ops.files.UnixFileSystemCalls.digest;
import static dev.reprise.agent.ops.files.UnixFileSystemCalls.handle;
import static dev.reprise.agent.ops.files.UnixFileSystemCalls.isJdk;
import static dev.reprise.agent.ops.files.UnixFileSystemCalls.live;

import java.io.File;
import java.lang.invoke.MethodHandle;

import dev.reprise.agent.ops.CallSite;
import dev.reprise.agent.ops.Claimed;
import dev.reprise.agent.ops.Prologue;
import dev.reprise.agent.runtime.events.Digest;
import dev.reprise.agent.runtime.events.Ev;
import dev.reprise.agent.runtime.events.Op;
import dev.reprise.agent.runtime.jdk.JdkFiles;

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

    private static final MethodHandle HAS_ATTRIBUTES_LIVE = handle("hasBooleanAttributes", boolean.class, File.class, int.class);
    private static final MethodHandle ATTRIBUTES_LIVE = handle("getBooleanAttributes", int.class, File.class);
    private static final MethodHandle ACCESS_LIVE = handle("checkAccess", boolean.class, File.class, int.class);
    private static final MethodHandle MODIFIED_LIVE = handle("getLastModifiedTime", long.class, File.class);
    private static final MethodHandle LENGTH_LIVE = handle("getLength", long.class, File.class);
    private static final MethodHandle LIST_LIVE = handle("list", String[].class, File.class);
    private static final MethodHandle CANONICAL_LIVE = handle("canonicalize", String.class, String.class);
    private static final MethodHandle SPACE_LIVE = handle("getSpace", long.class, File.class, int.class);
    private static final MethodHandle NAME_MAX_LIVE = handle("getNameMax", int.class, String.class);

    private FileMetadataOps() {
    }

    /** {@code exists}, {@code isFile}, {@code isDirectory}, {@code isHidden}, and the temp-file name loop. */
    @Prologue(owner = UFS, method = "hasBooleanAttributes", desc = "(Ljava/io/File;I)Z")
    public static boolean hasBooleanAttributes(Object fs, File f, int attributes) throws Throwable {
        return test(HAS_ATTRIBUTES, 0, HAS_ATTRIBUTES_LIVE, fs, f, attributes);
    }

    @Prologue(owner = UFS, method = "getBooleanAttributes", desc = "(Ljava/io/File;)I")
    public static int getBooleanAttributes(Object fs, File f) throws Throwable {
        if (isJdk(f)) {
            return (int) ATTRIBUTES_LIVE.invokeExact(fs, live(f));
        }
        Ev ev = Ev.begin(ATTRIBUTES, 0, digest(f));
        return ev.i(ev.live() ? (int) ATTRIBUTES_LIVE.invokeExact(fs, f) : 0);
    }

    /** {@code canRead}, {@code canWrite}, {@code canExecute}. */
    @CallSite(kind = CallSite.Kind.VIRTUAL, owner = FS, method = "checkAccess", desc = "(Ljava/io/File;I)Z", alsoIn = FILE)
    @Claimed(live = "ACCESS_LIVE", site = true)
    public static boolean checkAccess(Object fs, File f, int access, int site) throws Throwable {
        return test(ACCESS, site, ACCESS_LIVE, fs, f, access);
    }

    /** A yes-or-no question about {@code f} with an int argument: {@code (File, int)boolean}. */
    private static boolean test(Op op, int site, MethodHandle call, Object fs, File f, int arg) throws Throwable {
        if (isJdk(f)) {
            return (boolean) call.invokeExact(fs, live(f), arg);
        }
        Ev ev = Ev.begin(op, site, digest(f) ^ arg);
        return ev.z(ev.live() && (boolean) call.invokeExact(fs, f, arg));
    }

    @CallSite(kind = CallSite.Kind.VIRTUAL, owner = FS, method = "getLastModifiedTime", desc = "(Ljava/io/File;)J", alsoIn = FILE)
    @Claimed(live = "MODIFIED_LIVE", site = true)
    public static long getLastModifiedTime(Object fs, File f, int site) throws Throwable {
        return number(MODIFIED, site, MODIFIED_LIVE, fs, f);
    }

    @CallSite(kind = CallSite.Kind.VIRTUAL, owner = FS, method = "getLength", desc = "(Ljava/io/File;)J", alsoIn = FILE)
    @Claimed(live = "LENGTH_LIVE", site = true)
    public static long getLength(Object fs, File f, int site) throws Throwable {
        return number(LENGTH, site, LENGTH_LIVE, fs, f);
    }

    /** A number about {@code f}: {@code (File)long}. */
    private static long number(Op op, int site, MethodHandle call, Object fs, File f) throws Throwable {
        if (isJdk(f)) {
            return (long) call.invokeExact(fs, live(f));
        }
        Ev ev = Ev.begin(op, site, digest(f));
        return ev.j(ev.live() ? (long) call.invokeExact(fs, f) : 0);
    }

    /** {@code list} and {@code listFiles}: the names in the order the recording's file system gave them. */
    @CallSite(kind = CallSite.Kind.VIRTUAL, owner = FS, method = "list", desc = "(Ljava/io/File;)[Ljava/lang/String;", alsoIn = FILE)
    @Claimed(live = "LIST_LIVE", site = true)
    public static String[] list(Object fs, File f, int site) throws Throwable {
        if (isJdk(f)) {
            return (String[]) LIST_LIVE.invokeExact(fs, live(f));
        }
        Ev ev = Ev.begin(LIST, site, digest(f));
        String[] live = ev.live() ? (String[]) LIST_LIVE.invokeExact(fs, f) : null;
        int n = ev.i(live == null ? -1 : live.length);
        if (n < 0) {
            return null;
        }
        String[] names = live != null ? live : new String[n];
        for (int i = 0; i < n; i++) {
            names[i] = ev.s(names[i]);
        }
        return names;
    }

    /** {@code getCanonicalPath} and {@code getCanonicalFile}: the path is already absolute. */
    @Prologue(owner = UFS, method = "canonicalize", desc = "(Ljava/lang/String;)Ljava/lang/String;")
    public static String canonicalize(Object fs, String path) throws Throwable {
        if (JdkFiles.isJdkPath(path)) {
            return (String) CANONICAL_LIVE.invokeExact(fs, JdkFiles.live(path));
        }
        Ev ev = Ev.begin(CANONICAL, 0, Digest.of(path));
        return ev.s(ev.live() ? (String) CANONICAL_LIVE.invokeExact(fs, path) : null);
    }

    /** {@code getTotalSpace}, {@code getFreeSpace}, {@code getUsableSpace}. */
    @CallSite(kind = CallSite.Kind.VIRTUAL, owner = FS, method = "getSpace", desc = "(Ljava/io/File;I)J", alsoIn = FILE)
    @Claimed(live = "SPACE_LIVE", site = true)
    public static long getSpace(Object fs, File f, int t, int site) throws Throwable {
        Ev ev = Ev.begin(SPACE, site, digest(f) ^ t);
        return ev.j(ev.live() ? (long) SPACE_LIVE.invokeExact(fs, f, t) : 0);
    }

    /** Temp-file names are shortened to what the temp directory's file system takes. */
    @Prologue(owner = UFS, method = "getNameMax", desc = "(Ljava/lang/String;)I")
    public static int getNameMax(Object fs, String path) throws Throwable {
        Ev ev = Ev.begin(NAME_MAX, 0, Digest.of(path));
        return ev.i(ev.live() ? (int) NAME_MAX_LIVE.invokeExact(fs, path) : 0);
    }
}
