package dev.reprise.agent.ops.files;

import java.lang.invoke.MethodHandle;
import java.nio.file.Path;

import dev.reprise.agent.ops.CallSite;
import dev.reprise.agent.ops.Claimed;
import dev.reprise.agent.ops.Prologue;
import dev.reprise.agent.ops.net.NativeMemory;
import dev.reprise.agent.runtime.events.Ev;
import dev.reprise.agent.runtime.events.Op;

/**
 * {@code java.nio.file} metadata on the default file system, hooked in
 * {@code sun.nio.fs.UnixNativeDispatcher}: opening and closing descriptors, stat (which
 * {@code Files.exists}, {@code isDirectory}, {@code size}, {@code readAttributes} and the
 * directory walkers all end in), access checks, the user and group names of
 * {@code PosixFileAttributes}, and an open file's extended attributes. On replay an open returns the harmless descriptor -1, which
 * {@code FileChannelImpl} and the directory hooks never use, and stat fills the JDK's attribute
 * object from the recording. The JDK's own files stay live and unlogged ({@link LiveHandles}).
 */
public final class NioFileSystemOps {
    static final String D = "sun/nio/fs/UnixNativeDispatcher";
    static final String P = "Lsun/nio/fs/UnixPath;";
    private static final String A = "Lsun/nio/fs/UnixFileAttributes;";

    private static final Op OPEN = Op.named("nio.open");
    private static final Op CLOSE = Op.named("nio.close");
    private static final Op STAT = Op.named("nio.stat");
    private static final Op LSTAT = Op.named("nio.lstat");
    private static final Op FSTAT = Op.named("nio.fstat");
    private static final Op STAT_MODE = Op.named("nio.stat.mode");
    private static final Op ACCESS = Op.named("nio.access");
    private static final Op EXISTS = Op.named("nio.exists");
    private static final Op USER = Op.named("nio.getpwuid");
    private static final Op GROUP = Op.named("nio.getgrgid");
    private static final Op GET_XATTR = Op.named("nio.fgetxattr");
    private static final Op SET_XATTR = Op.named("nio.fsetxattr");
    private static final Op REMOVE_XATTR = Op.named("nio.fremovexattr");
    private static final Op LIST_XATTR = Op.named("nio.flistxattr");

    private static final MethodHandle OPEN_LIVE = Unix.method("open", int.class, Unix.PATH, int.class, int.class);
    private static final MethodHandle CLOSE_LIVE = Unix.method("close", void.class, int.class);
    private static final MethodHandle STAT_LIVE = Unix.method("stat", void.class, Unix.PATH, Unix.ATTRS);
    private static final MethodHandle STAT2_LIVE = Unix.optional("stat2", int.class, Unix.PATH, Unix.ATTRS);
    private static final MethodHandle LSTAT_LIVE = Unix.method("lstat", void.class, Unix.PATH, Unix.ATTRS);
    private static final MethodHandle FSTAT_LIVE = Unix.method("fstat", void.class, int.class, Unix.ATTRS);
    private static final MethodHandle STAT_MODE_LIVE = Unix.optional("stat", int.class, Unix.PATH);
    private static final MethodHandle ACCESS_THROWS_LIVE = Unix.optional("access", void.class, Unix.PATH, int.class);
    private static final MethodHandle ACCESS_ERRNO_LIVE = Unix.optional("access", int.class, Unix.PATH, int.class);
    private static final MethodHandle EXISTS_LIVE = Unix.optional("exists", boolean.class, Unix.PATH);
    private static final MethodHandle USER_LIVE = Unix.method("getpwuid", byte[].class, int.class);
    private static final MethodHandle GROUP_LIVE = Unix.method("getgrgid", byte[].class, int.class);
    private static final MethodHandle GET_XATTR_LIVE = Unix.optional("fgetxattr", int.class, int.class, byte[].class,
            long.class, int.class);
    private static final MethodHandle SET_XATTR_LIVE = Unix.optional("fsetxattr", void.class, int.class, byte[].class,
            long.class, int.class);
    private static final MethodHandle REMOVE_XATTR_LIVE = Unix.optional("fremovexattr", void.class, int.class, byte[].class);
    private static final MethodHandle LIST_XATTR_LIVE = Unix.optional("flistxattr", int.class, int.class, long.class, int.class);

    private NioFileSystemOps() {
    }

    @Prologue(owner = D, method = "open", desc = "(" + P + "II)I")
    public static int open(Path path, int flags, int mode) throws Throwable {
        Path jdk = Unix.jdkPath(path);
        if (jdk != null) {
            return LiveHandles.add((int) OPEN_LIVE.invokeExact(jdk, flags, mode));
        }
        int errno = 0;
        int fd = -1;
        Ev ev = Ev.begin(OPEN, 0, 31 * (31 * Unix.digest(path) + flags) + mode);
        if (ev.live()) {
            try {
                fd = (int) OPEN_LIVE.invokeExact(path, flags, mode);
                LiveHandles.forget(fd);
            } catch (Throwable t) {
                errno = Unix.errno(t);
            }
        }
        errno = ev.i(errno);
        ev.end();
        Unix.check(errno);
        return fd;
    }

    /** The descriptor number is not checked: on replay it is -1. JDK 25 reports errors, 17 does not. */
    @Prologue(owner = D, method = "close", desc = "(I)V")
    public static void close(int fd) throws Throwable {
        if (LiveHandles.contains(fd)) {
            LiveHandles.forget(fd);
            CLOSE_LIVE.invokeExact(fd);
            return;
        }
        int errno;
        Ev ev = Ev.begin(CLOSE, 0, 0);
        errno = ev.i(ev.live() ? closeErrno(fd) : 0);
        ev.end();
        Unix.check(errno);
    }

    // The dispatcher's void calls, live, as their errno (Unix.errno): 0 when they return.

    private static int closeErrno(int fd) throws Throwable {
        try {
            CLOSE_LIVE.invokeExact(fd);
            return 0;
        } catch (Throwable t) {
            return Unix.errno(t);
        }
    }

    private static int statErrno(MethodHandle live, Path path, Object attrs) throws Throwable {
        try {
            live.invokeExact(path, attrs);
            return 0;
        } catch (Throwable t) {
            return Unix.errno(t);
        }
    }

    private static int fstatErrno(int fd, Object attrs) throws Throwable {
        try {
            FSTAT_LIVE.invokeExact(fd, attrs);
            return 0;
        } catch (Throwable t) {
            return Unix.errno(t);
        }
    }

    private static int accessErrno(Path path, int amode) throws Throwable {
        try {
            ACCESS_THROWS_LIVE.invokeExact(path, amode);
            return 0;
        } catch (Throwable t) {
            return Unix.errno(t);
        }
    }

    @Prologue(owner = D, method = "stat", desc = "(" + P + A + ")V")
    public static void stat(Path path, Object attrs) throws Throwable {
        stat(STAT, STAT_LIVE, path, attrs);
    }

    @Prologue(owner = D, method = "lstat", desc = "(" + P + A + ")V")
    public static void lstat(Path path, Object attrs) throws Throwable {
        stat(LSTAT, LSTAT_LIVE, path, attrs);
    }

    private static void stat(Op op, MethodHandle live, Path path, Object attrs) throws Throwable {
        Path jdk = Unix.jdkPath(path);
        if (jdk != null) {
            live.invokeExact(jdk, attrs);
            return;
        }
        int errno;
        Ev ev = Ev.begin(op, 0, Unix.digest(path));
        errno = ev.i(ev.live() ? statErrno(live, path, attrs) : 0);
        if (errno == 0) {
            UnixAttrs.code(ev, attrs);
        }
        ev.end();
        Unix.check(errno);
    }

    /** JDK 25: stat that returns the errno ({@code Files.isDirectory}, {@code isRegularFile}). */
    @Prologue(owner = D, method = "stat2", desc = "(" + P + A + ")I", optional = true)
    public static int stat2(Path path, Object attrs) throws Throwable {
        Path jdk = Unix.jdkPath(path);
        if (jdk != null) {
            return (int) STAT2_LIVE.invokeExact(jdk, attrs);
        }
        Ev ev = Ev.begin(STAT, 0, Unix.digest(path));
        int errno = ev.i(ev.live() ? (int) STAT2_LIVE.invokeExact(path, attrs) : 0);
        if (errno == 0) {
            UnixAttrs.code(ev, attrs);
        }
        return errno;
    }

    /** JDK 17: the file's mode, 0 on error ({@code Files.isDirectory}, {@code isRegularFile}). */
    @Prologue(owner = D, method = "stat", desc = "(" + P + ")I", optional = true)
    public static int statMode(Path path) throws Throwable {
        Path jdk = Unix.jdkPath(path);
        if (jdk != null) {
            return (int) STAT_MODE_LIVE.invokeExact(jdk);
        }
        Ev ev = Ev.begin(STAT_MODE, 0, Unix.digest(path));
        return ev.i(ev.live() ? (int) STAT_MODE_LIVE.invokeExact(path) : 0);
    }

    /** Native in JDK 17: its calls are hooked where attributes of an open file are read. */
    @CallSite(kind = CallSite.Kind.STATIC, owner = D, method = "fstat", desc = "(I" + A + ")V",
            alsoIn = {"sun/nio/fs/UnixFileAttributes"})
    @Claimed(live = "FSTAT_LIVE")
    public static void fstat(int fd, Object attrs) throws Throwable {
        if (LiveHandles.contains(fd)) {
            FSTAT_LIVE.invokeExact(fd, attrs);
            return;
        }
        int errno;
        Ev ev = Ev.begin(FSTAT, 0, 0);
        errno = ev.i(ev.live() ? fstatErrno(fd, attrs) : 0);
        if (errno == 0) {
            UnixAttrs.code(ev, attrs);
        }
        ev.end();
        Unix.check(errno);
    }

    /** JDK 17: access(2) that throws ({@code Files.notExists}, {@code checkAccess}). */
    @Prologue(owner = D, method = "access", desc = "(" + P + "I)V", optional = true)
    public static void accessOrThrow(Path path, int amode) throws Throwable {
        Path jdk = Unix.jdkPath(path);
        if (jdk != null) {
            ACCESS_THROWS_LIVE.invokeExact(jdk, amode);
            return;
        }
        int errno;
        Ev ev = Ev.begin(ACCESS, 0, 31 * Unix.digest(path) + amode);
        errno = ev.i(ev.live() ? accessErrno(path, amode) : 0);
        ev.end();
        Unix.check(errno);
    }

    /** JDK 25: access(2) that returns the errno ({@code Files.exists}, {@code checkAccess}). */
    @Prologue(owner = D, method = "access", desc = "(" + P + "I)I", optional = true)
    public static int access(Path path, int amode) throws Throwable {
        Path jdk = Unix.jdkPath(path);
        if (jdk != null) {
            return (int) ACCESS_ERRNO_LIVE.invokeExact(jdk, amode);
        }
        Ev ev = Ev.begin(ACCESS, 0, 31 * Unix.digest(path) + amode);
        return ev.i(ev.live() ? (int) ACCESS_ERRNO_LIVE.invokeExact(path, amode) : 0);
    }

    /** JDK 17: {@code Files.exists} without options. */
    @Prologue(owner = D, method = "exists", desc = "(" + P + ")Z", optional = true)
    public static boolean exists(Path path) throws Throwable {
        Path jdk = Unix.jdkPath(path);
        if (jdk != null) {
            return (boolean) EXISTS_LIVE.invokeExact(jdk);
        }
        Ev ev = Ev.begin(EXISTS, 0, Unix.digest(path));
        return ev.z(ev.live() && (boolean) EXISTS_LIVE.invokeExact(path));
    }

    /**
     * Extended attributes of an open file: {@code UserDefinedFileAttributeView} and Linux's
     * {@code DosFileAttributeView}, which keeps its flags in one. On replay the descriptor is -1,
     * so run live these failed with EBADF: the program took its error path where the recording
     * had not (commons-io's {@code PathUtils.setReadOnly} deleting a test's temp files). The
     * value's size, or with a buffer the value itself, copied into it on replay.
     */
    @Prologue(owner = D, method = "fgetxattr", desc = "(I[BJI)I", optional = true)
    public static int fgetxattr(int fd, byte[] name, long address, int len) throws Throwable {
        if (LiveHandles.contains(fd)) {
            return (int) GET_XATTR_LIVE.invokeExact(fd, name, address, len);
        }
        int errno = 0;
        int n = 0;
        Ev ev = Ev.begin(GET_XATTR, 0, 31 * java.util.Arrays.hashCode(name) + len);
        if (ev.live()) {
            try {
                n = (int) GET_XATTR_LIVE.invokeExact(fd, name, address, len);
            } catch (Throwable t) {
                errno = Unix.errno(t);
            }
        }
        return filled(ev, errno, n, address, len);
    }

    @Prologue(owner = D, method = "fsetxattr", desc = "(I[BJI)V", optional = true)
    public static void fsetxattr(int fd, byte[] name, long address, int len) throws Throwable {
        if (LiveHandles.contains(fd)) {
            SET_XATTR_LIVE.invokeExact(fd, name, address, len);
            return;
        }
        int errno = 0;
        Ev ev = Ev.begin(SET_XATTR, 0, 31 * java.util.Arrays.hashCode(name) + len);
        if (ev.live()) {
            try {
                SET_XATTR_LIVE.invokeExact(fd, name, address, len);
            } catch (Throwable t) {
                errno = Unix.errno(t);
            }
        }
        errno = ev.i(errno);
        ev.end();
        Unix.check(errno);
    }

    @Prologue(owner = D, method = "fremovexattr", desc = "(I[B)V", optional = true)
    public static void fremovexattr(int fd, byte[] name) throws Throwable {
        if (LiveHandles.contains(fd)) {
            REMOVE_XATTR_LIVE.invokeExact(fd, name);
            return;
        }
        int errno = 0;
        Ev ev = Ev.begin(REMOVE_XATTR, 0, java.util.Arrays.hashCode(name));
        if (ev.live()) {
            try {
                REMOVE_XATTR_LIVE.invokeExact(fd, name);
            } catch (Throwable t) {
                errno = Unix.errno(t);
            }
        }
        errno = ev.i(errno);
        ev.end();
        Unix.check(errno);
    }

    /** Native: its calls are hooked in the view that lists a file's attributes. */
    @CallSite(kind = CallSite.Kind.STATIC, owner = D, method = "flistxattr", desc = "(IJI)I",
            alsoIn = {"sun/nio/fs/UnixUserDefinedFileAttributeView"})
    @Claimed(live = "LIST_XATTR_LIVE")
    public static int flistxattr(int fd, long address, int len) throws Throwable {
        if (LiveHandles.contains(fd)) {
            return (int) LIST_XATTR_LIVE.invokeExact(fd, address, len);
        }
        int errno = 0;
        int n = 0;
        Ev ev = Ev.begin(LIST_XATTR, 0, len);
        if (ev.live()) {
            try {
                n = (int) LIST_XATTR_LIVE.invokeExact(fd, address, len);
            } catch (Throwable t) {
                errno = Unix.errno(t);
            }
        }
        return filled(ev, errno, n, address, len);
    }

    /**
     * The end of an attribute call that wrote {@code n} bytes at {@code address} (with a buffer,
     * {@code len > 0}), or failed with {@code errno}: both logged, the bytes too, or put there on
     * replay; the event ends before the error is thrown, which it coded.
     */
    private static int filled(Ev ev, int errno, int n, long address, int len) throws Throwable {
        errno = ev.i(errno);
        n = ev.i(n);
        if (errno == 0 && len > 0) {
            toMemory(ev, address, n);
        }
        ev.end();
        Unix.check(errno);
        return n;
    }

    /** The {@code n} bytes a call wrote at {@code address}: logged, or put there on replay. */
    private static void toMemory(Ev ev, long address, int n) {
        if (n <= 0) {
            return;
        }
        byte[] b = ev.live() ? NativeMemory.get(address, n) : new byte[n];
        ev.fill(b, 0, n);
        if (!ev.live()) {
            NativeMemory.put(address, b, n);
        }
    }

    /** The owner's name in {@code PosixFileAttributes}: from the recording machine's user database. */
    @CallSite(kind = CallSite.Kind.STATIC, owner = D, method = "getpwuid", desc = "(I)[B",
            alsoIn = {"sun/nio/fs/UnixUserPrincipals"})
    @Claimed(live = "USER_LIVE")
    public static byte[] getpwuid(int uid) throws Throwable {
        return name(USER, USER_LIVE, uid);
    }

    @CallSite(kind = CallSite.Kind.STATIC, owner = D, method = "getgrgid", desc = "(I)[B",
            alsoIn = {"sun/nio/fs/UnixUserPrincipals"})
    @Claimed(live = "GROUP_LIVE")
    public static byte[] getgrgid(int gid) throws Throwable {
        return name(GROUP, GROUP_LIVE, gid);
    }

    private static byte[] name(Op op, MethodHandle live, int id) throws Throwable {
        int errno = 0;
        byte[] name = null;
        Ev ev = Ev.begin(op, 0, id);
        if (ev.live()) {
            try {
                name = (byte[]) live.invokeExact(id);
            } catch (Throwable t) {
                errno = Unix.errno(t);
            }
        }
        errno = ev.i(errno);
        if (errno == 0) {
            name = ev.blob(name);
        }
        ev.end();
        Unix.check(errno);
        return name;
    }
}
