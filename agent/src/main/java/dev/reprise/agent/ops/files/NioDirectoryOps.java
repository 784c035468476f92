package dev.reprise.agent.ops.files;

import static dev.reprise.agent.ops.files.NioFileSystemOps.D;
import static dev.reprise.agent.ops.files.NioFileSystemOps.P;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodType;
import java.nio.file.Path;

import dev.reprise.agent.ops.CallSite;
import dev.reprise.agent.ops.Claimed;
import dev.reprise.agent.ops.Prologue;
import dev.reprise.agent.runtime.events.Ev;
import dev.reprise.agent.runtime.events.Op;

/**
 * Directory listing ({@code Files.list}, {@code walk}, {@code newDirectoryStream}): the names
 * readdir returned, in the order the recording machine's file system returned them, which
 * differs between machines and file systems. On replay no directory is opened: dup and
 * fdopendir return the invalid handles -1, and readdir and closedir never reach the C library
 * (closedir of a bad pointer would crash the JVM). The natives are hooked at their calls.
 */
public final class NioDirectoryOps {
    private static final String STREAM = "sun/nio/fs/UnixDirectoryStream";
    private static final String ITERATOR = "sun/nio/fs/UnixDirectoryStream$UnixDirectoryIterator";
    private static final String PROVIDER = "sun/nio/fs/UnixFileSystemProvider";
    private static final String SECURE_STREAM = "sun/nio/fs/UnixSecureDirectoryStream";
    /** Where readdir and closedir are also called: emptiness checks for copy and move, JDK 17 and 25. */
    private static final String COPY_17 = "sun/nio/fs/UnixCopyFile";
    private static final String COPY_25 = "sun/nio/fs/UnixFileSystem";
    private static final String PATH_25 = "sun/nio/fs/UnixPath";

    private static final Op OPENDIR = Op.named("nio.opendir");
    private static final Op DUP = Op.named("nio.dup");
    private static final Op FDOPENDIR = Op.named("nio.fdopendir");
    private static final Op READDIR = Op.named("nio.readdir");
    private static final Op CLOSEDIR = Op.named("nio.closedir");

    private static final MethodHandle OPENDIR_LIVE = Unix.method("opendir", long.class, Unix.PATH);
    private static final MethodHandle DUP_LIVE = Unix.method("dup", int.class, int.class);
    /** {@code dup}, its result widened: one shape with {@code fdopendir}. */
    private static final MethodHandle DUP_WIDE = DUP_LIVE.asType(MethodType.methodType(long.class, int.class));
    private static final MethodHandle FDOPENDIR_LIVE = Unix.method("fdopendir", long.class, int.class);
    private static final MethodHandle READDIR_LIVE = Unix.method("readdir", byte[].class, long.class);
    private static final MethodHandle CLOSEDIR_LIVE = Unix.method("closedir", void.class, long.class);

    private NioDirectoryOps() {
    }

    /** {@code closedir}, live, as its errno ({@link Unix#errno}): 0 when it returns. */
    private static int closedirErrno(long dir) throws Throwable {
        try {
            CLOSEDIR_LIVE.invokeExact(dir);
            return 0;
        } catch (Throwable t) {
            return Unix.errno(t);
        }
    }

    @Prologue(owner = D, method = "opendir", desc = "(" + P + ")J")
    public static long opendir(Path path) throws Throwable {
        Path jdk = Unix.jdkPath(path);
        if (jdk != null) {
            return LiveHandles.add((long) OPENDIR_LIVE.invokeExact(jdk));
        }
        int errno = 0;
        long dir = -1;
        Ev ev = Ev.begin(OPENDIR, 0, Unix.digest(path));
        if (ev.live()) {
            try {
                dir = (long) OPENDIR_LIVE.invokeExact(path);
                LiveHandles.forget(dir);
            } catch (Throwable t) {
                errno = Unix.errno(t);
            }
        }
        errno = ev.i(errno);
        ev.end();
        Unix.check(errno);
        return dir;
    }

    @CallSite(kind = CallSite.Kind.STATIC, owner = D, method = "dup", desc = "(I)I", alsoIn = {PROVIDER, SECURE_STREAM})
    @Claimed(live = "DUP_LIVE")
    public static int dup(int fd) throws Throwable {
        return (int) fromDescriptor(DUP, DUP_WIDE, fd);
    }

    @CallSite(kind = CallSite.Kind.STATIC, owner = D, method = "fdopendir", desc = "(I)J",
            alsoIn = {PROVIDER, SECURE_STREAM})
    @Claimed(live = "FDOPENDIR_LIVE")
    public static long fdopendir(int fd) throws Throwable {
        return fromDescriptor(FDOPENDIR, FDOPENDIR_LIVE, fd);
    }

    /**
     * A new handle made from descriptor {@code fd} by {@code live} ({@code (int)long}): live and
     * itself live if {@code fd} is one of the JDK's own, else an event whose errno is logged.
     */
    private static long fromDescriptor(Op op, MethodHandle live, int fd) throws Throwable {
        if (LiveHandles.contains(fd)) {
            return LiveHandles.add((long) live.invokeExact(fd));
        }
        int errno = 0;
        long handle = -1;
        Ev ev = Ev.begin(op, 0, 0);
        if (ev.live()) {
            try {
                handle = (long) live.invokeExact(fd);
                LiveHandles.forget(handle);
            } catch (Throwable t) {
                errno = Unix.errno(t);
            }
        }
        errno = ev.i(errno);
        ev.end();
        Unix.check(errno);
        return handle;
    }

    /** The next entry's name, null at the end. */
    @CallSite(kind = CallSite.Kind.STATIC, owner = D, method = "readdir", desc = "(J)[B",
            alsoIn = {ITERATOR, COPY_17, COPY_25, PATH_25})
    @Claimed(live = "READDIR_LIVE")
    public static byte[] readdir(long dir) throws Throwable {
        if (LiveHandles.contains(dir)) {
            return (byte[]) READDIR_LIVE.invokeExact(dir);
        }
        int errno = 0;
        byte[] name = null;
        Ev ev = Ev.begin(READDIR, 0, 0);
        if (ev.live()) {
            try {
                name = (byte[]) READDIR_LIVE.invokeExact(dir);
            } catch (Throwable t) {
                errno = Unix.errno(t);
            }
        }
        errno = ev.i(errno);
        if (errno == 0 && ev.z(name != null)) {
            name = ev.blob(name);
        }
        ev.end();
        Unix.check(errno);
        return name;
    }

    @CallSite(kind = CallSite.Kind.STATIC, owner = D, method = "closedir", desc = "(J)V",
            alsoIn = {STREAM, COPY_17, COPY_25, PATH_25})
    @Claimed(live = "CLOSEDIR_LIVE")
    public static void closedir(long dir) throws Throwable {
        if (LiveHandles.contains(dir)) {
            LiveHandles.forget(dir);
            CLOSEDIR_LIVE.invokeExact(dir);
            return;
        }
        int errno;
        Ev ev = Ev.begin(CLOSEDIR, 0, 0);
        errno = ev.i(ev.live() ? closedirErrno(dir) : 0);
        ev.end();
        Unix.check(errno);
    }
}
