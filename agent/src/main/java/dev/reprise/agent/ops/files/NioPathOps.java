package dev.reprise.agent.ops.files;

import static dev.reprise.agent.ops.files.NioFileSystemOps.D;
import static dev.reprise.agent.ops.files.NioFileSystemOps.P;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodType;
import java.nio.file.CopyOption;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.spi.FileSystemProvider;

import dev.reprise.agent.ops.Prologue;
import dev.reprise.agent.runtime.events.Digest;
import dev.reprise.agent.runtime.events.Ev;
import dev.reprise.agent.runtime.events.Op;
import dev.reprise.agent.runtime.jdk.JdkMethods;

/**
 * Changes to the file system through {@code java.nio.file}: create and delete directories,
 * delete, links ({@code sun.nio.fs.UnixNativeDispatcher}); times, permissions and owners, each
 * one event at the attribute view; {@code Files.copy} and {@code Files.move} between paths, each
 * one event at the provider. The views and the copy work on descriptors they open, which replay
 * does not have. Recording makes the change; replay only reproduces
 * the outcome (success, or the same error) and leaves the disk alone.
 */
public final class NioPathOps {
    private static final String PROVIDER = "sun/nio/fs/UnixFileSystemProvider";
    private static final String BASIC = "sun/nio/fs/UnixFileAttributeViews$Basic";
    private static final String POSIX = "sun/nio/fs/UnixFileAttributeViews$Posix";
    private static final String COPY_DESC = "(Ljava/nio/file/Path;Ljava/nio/file/Path;[Ljava/nio/file/CopyOption;)V";

    private static final Op MKDIR = Op.named("nio.mkdir");
    private static final Op RMDIR = Op.named("nio.rmdir");
    private static final Op UNLINK = Op.named("nio.unlink");
    private static final Op LINK = Op.named("nio.link");
    private static final Op SYMLINK = Op.named("nio.symlink");
    private static final Op READLINK = Op.named("nio.readlink");
    private static final Op REALPATH = Op.named("nio.realpath");
    private static final Op SET_TIMES = Op.named("nio.settimes");
    private static final Op SET_MODE = Op.named("nio.setmode");
    private static final Op SET_OWNERS = Op.named("nio.setowners");
    private static final Op COPY = Op.named("nio.copy");
    private static final Op MOVE = Op.named("nio.move");

    /** The dispatcher's void calls, run live as their errno ({@link Unix#errno}) by the methods below. */
    private static final MethodHandle MKDIR_LIVE = Unix.method("mkdir", void.class, Unix.PATH, int.class);
    private static final MethodHandle RMDIR_LIVE = Unix.method("rmdir", void.class, Unix.PATH);
    private static final MethodHandle UNLINK_LIVE = Unix.method("unlink", void.class, Unix.PATH);
    private static final MethodHandle LINK_LIVE = Unix.method("link", void.class, Unix.PATH, Unix.PATH);
    private static final MethodHandle SYMLINK_LIVE = Unix.method("symlink", void.class, byte[].class, Unix.PATH);
    private static final MethodHandle READLINK_LIVE = Unix.method("readlink", byte[].class, Unix.PATH);
    private static final MethodHandle REALPATH_LIVE = Unix.method("realpath", byte[].class, Unix.PATH);
    private static final MethodHandle SET_TIMES_LIVE = view(BASIC, "setTimes", FileTime.class, FileTime.class, FileTime.class);
    private static final MethodHandle SET_MODE_LIVE = view(POSIX, "setMode", int.class);
    private static final MethodHandle SET_OWNERS_LIVE = view(POSIX, "setOwners", int.class, int.class);
    private static final MethodType COPY_TYPE =
            MethodType.methodType(void.class, FileSystemProvider.class, Path.class, Path.class, CopyOption[].class);
    private static final MethodHandle COPY_LIVE = provider("copy");
    private static final MethodHandle MOVE_LIVE = provider("move");

    private NioPathOps() {
    }

    private static MethodHandle provider(String name) {
        Class<?> c = JdkMethods.jdkClass(PROVIDER.replace('/', '.'));
        return JdkMethods.special(c, name, COPY_TYPE.dropParameterTypes(0, 1)).asType(COPY_TYPE);
    }

    /** A method of an attribute view, typed with {@code Object} for the view. */
    private static MethodHandle view(String owner, String name, Class<?>... params) {
        MethodType t = MethodType.methodType(void.class, params);
        return JdkMethods.special(JdkMethods.jdkClass(owner.replace('/', '.')), name, t)
                .asType(t.insertParameterTypes(0, Object.class));
    }

    @Prologue(owner = D, method = "mkdir", desc = "(" + P + "I)V")
    public static void mkdir(Path path, int mode) throws Throwable {
        int errno;
        Ev ev = Ev.begin(MKDIR, 0, 31 * Unix.digest(path) + mode);
        errno = ev.i(ev.live() ? mkdirErrno(path, mode) : 0);
        ev.end();
        Unix.check(errno);
    }

    @Prologue(owner = D, method = "rmdir", desc = "(" + P + ")V")
    public static void rmdir(Path path) throws Throwable {
        remove(RMDIR, RMDIR_LIVE, path);
    }

    @Prologue(owner = D, method = "unlink", desc = "(" + P + ")V")
    public static void unlink(Path path) throws Throwable {
        remove(UNLINK, UNLINK_LIVE, path);
    }

    private static int mkdirErrno(Path path, int mode) throws Throwable {
        try {
            MKDIR_LIVE.invokeExact(path, mode);
            return 0;
        } catch (Throwable t) {
            return Unix.errno(t);
        }
    }

    private static int removeErrno(MethodHandle live, Path path) throws Throwable {
        try {
            live.invokeExact(path);
            return 0;
        } catch (Throwable t) {
            return Unix.errno(t);
        }
    }

    private static int linkErrno(Path existing, Path link) throws Throwable {
        try {
            LINK_LIVE.invokeExact(existing, link);
            return 0;
        } catch (Throwable t) {
            return Unix.errno(t);
        }
    }

    private static int symlinkErrno(byte[] target, Path link) throws Throwable {
        try {
            SYMLINK_LIVE.invokeExact(target, link);
            return 0;
        } catch (Throwable t) {
            return Unix.errno(t);
        }
    }

    private static void remove(Op op, MethodHandle live, Path path) throws Throwable {
        int errno;
        Ev ev = Ev.begin(op, 0, Unix.digest(path));
        errno = ev.i(ev.live() ? removeErrno(live, path) : 0);
        ev.end();
        Unix.check(errno);
    }

    @Prologue(owner = D, method = "link", desc = "(" + P + P + ")V")
    public static void link(Path existing, Path link) throws Throwable {
        int errno;
        Ev ev = Ev.begin(LINK, 0, 31 * Unix.digest(existing) + Unix.digest(link));
        errno = ev.i(ev.live() ? linkErrno(existing, link) : 0);
        ev.end();
        Unix.check(errno);
    }

    @Prologue(owner = D, method = "symlink", desc = "([B" + P + ")V")
    public static void symlink(byte[] target, Path link) throws Throwable {
        int errno;
        Ev ev = Ev.begin(SYMLINK, 0, 31 * (target == null ? 0 : Digest.of(target, 0, target.length)) + Unix.digest(link));
        errno = ev.i(ev.live() ? symlinkErrno(target, link) : 0);
        ev.end();
        Unix.check(errno);
    }

    @Prologue(owner = D, method = "readlink", desc = "(" + P + ")[B")
    public static byte[] readlink(Path path) throws Throwable {
        return resolve(READLINK, READLINK_LIVE, path);
    }

    /** {@code Path.toRealPath}: the recording machine's answer, symbolic links resolved there. */
    @Prologue(owner = D, method = "realpath", desc = "(" + P + ")[B")
    public static byte[] realpath(Path path) throws Throwable {
        return resolve(REALPATH, REALPATH_LIVE, path);
    }

    private static byte[] resolve(Op op, MethodHandle live, Path path) throws Throwable {
        Path jdk = Unix.jdkPath(path);
        if (jdk != null) {
            return (byte[]) live.invokeExact(jdk);
        }
        int errno = 0;
        byte[] result = null;
        Ev ev = Ev.begin(op, 0, Unix.digest(path));
        if (ev.live()) {
            try {
                result = (byte[]) live.invokeExact(path);
            } catch (Throwable t) {
                errno = Unix.errno(t);
            }
        }
        errno = ev.i(errno);
        if (errno == 0) {
            result = ev.blob(result);
        }
        ev.end();
        Unix.check(errno);
        return result;
    }

    /**
     * {@code Files.setLastModifiedTime} and {@code BasicFileAttributeView.setTimes}, one event:
     * the view opens the file and branches on the descriptor, which replay does not have.
     */
    @Prologue(owner = BASIC, method = "setTimes",
            desc = "(Ljava/nio/file/attribute/FileTime;Ljava/nio/file/attribute/FileTime;Ljava/nio/file/attribute/FileTime;)V")
    public static void setTimes(Object view, FileTime modified, FileTime accessed, FileTime created) throws Throwable {
        Ev ev = Ev.begin(SET_TIMES, 0, 31 * (31 * digest(modified) + digest(accessed)) + digest(created));
        if (ev.live()) {
            SET_TIMES_LIVE.invokeExact(view, modified, accessed, created);
        }
    }

    /** {@code Files.setPosixFilePermissions}: chmod, or fchmod on a descriptor without following links. */
    @Prologue(owner = POSIX, method = "setMode", desc = "(I)V")
    public static void setMode(Object view, int mode) throws Throwable {
        Ev ev = Ev.begin(SET_MODE, 0, mode);
        if (ev.live()) {
            SET_MODE_LIVE.invokeExact(view, mode);
        }
    }

    /** {@code Files.setOwner}: chown, lchown or fchown. */
    @Prologue(owner = POSIX, method = "setOwners", desc = "(II)V")
    public static void setOwners(Object view, int uid, int gid) throws Throwable {
        Ev ev = Ev.begin(SET_OWNERS, 0, 31 * uid + gid);
        if (ev.live()) {
            SET_OWNERS_LIVE.invokeExact(view, uid, gid);
        }
    }

    @Prologue(owner = PROVIDER, method = "copy", desc = COPY_DESC)
    public static void copy(FileSystemProvider self, Path source, Path target, CopyOption[] options) throws Throwable {
        transfer(COPY, COPY_LIVE, self, source, target, options);
    }

    @Prologue(owner = PROVIDER, method = "move", desc = COPY_DESC)
    public static void move(FileSystemProvider self, Path source, Path target, CopyOption[] options) throws Throwable {
        transfer(MOVE, MOVE_LIVE, self, source, target, options);
    }

    private static void transfer(Op op, MethodHandle live, FileSystemProvider self, Path source, Path target,
                                 CopyOption[] options) throws Throwable {
        Ev ev = Ev.begin(op, 0, 31 * (31 * Unix.digest(source) + Unix.digest(target)) + digest(options));
        if (ev.live()) {
            live.invokeExact(self, source, target, options);
        }
    }

    private static int digest(FileTime time) {
        return time == null ? 0 : Long.hashCode(time.toMillis());
    }

    private static int digest(CopyOption[] options) {
        int h = 0;
        if (options != null) {
            for (CopyOption o : options) {
                h = 31 * h + (o == null ? 0 : Digest.of(o.toString()));
            }
        }
        return h;
    }
}
