package dev.reprise.agent.ops.files;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodType;

import dev.reprise.agent.ops.CallSite;
import dev.reprise.agent.ops.Claimed;
import dev.reprise.agent.runtime.events.Digest;
import dev.reprise.agent.runtime.events.Ev;
import dev.reprise.agent.runtime.events.Op;
import dev.reprise.agent.runtime.jdk.JdkMethods;

import jdk.internal.misc.Unsafe;

/**
 * The file system's events, through the JDK's watch service on Linux ({@code
 * sun.nio.fs.LinuxWatchService}): an inotify descriptor, and a socket pair by which the
 * program's threads wake the service's poller thread with a registration or a close. Each of its
 * natives is an event: the descriptors it creates, the watches it adds and removes, each poll's
 * count of ready descriptors, and each read with the inotify events the kernel gave, which a
 * replay writes into the poller's native buffer as the kernel did. A replay creates no descriptor
 * and watches nothing: the files the program writes are not written then, and would make no
 * event. The poller is the program's thread (the service's classes are among the JDK's libraries
 * that run as the program, {@code instrument/Catalogue}), so its hand-over of registrations and
 * of signalled keys is ordered with the program's threads.
 */
public final class WatchServiceOps {
    private static final String SERVICE = "sun/nio/fs/LinuxWatchService";
    private static final String POLLER = "sun/nio/fs/LinuxWatchService$Poller";
    private static final Unsafe UNSAFE = Unsafe.getUnsafe();
    private static final Op INIT = Op.named("watch.init");
    private static final Op BLOCKING = Op.named("watch.blocking");
    private static final Op PAIR = Op.named("watch.pair");
    private static final Op ADD = Op.named("watch.add");
    private static final Op REMOVE = Op.named("watch.remove");
    private static final Op POLL = Op.named("watch.poll");
    private static final Op READ = Op.named("watch.read");
    private static final Op WAKE = Op.named("watch.wake");

    private static final Class<?> SERVICE_CLASS = JdkMethods.jdkClass(SERVICE.replace('/', '.'));
    private static final MethodHandle INIT_LIVE = service("inotifyInit", int.class);
    private static final MethodHandle BLOCKING_LIVE = service("configureBlocking", void.class, int.class, boolean.class);
    private static final MethodHandle PAIR_LIVE = service("socketpair", void.class, int[].class);
    private static final MethodHandle ADD_LIVE = service("inotifyAddWatch", int.class, int.class, long.class, int.class);
    private static final MethodHandle REMOVE_LIVE = service("inotifyRmWatch", void.class, int.class, int.class);
    private static final MethodHandle POLL_LIVE = service("poll", int.class, int.class, int.class);
    private static final MethodHandle READ_LIVE = Unix.method("read", int.class, int.class, long.class, int.class);
    private static final MethodHandle WRITE_LIVE = Unix.method("write", int.class, int.class, long.class, int.class);

    private WatchServiceOps() {
    }

    private static MethodHandle service(String name, Class<?> returned, Class<?>... params) {
        return JdkMethods.statik(SERVICE_CLASS, name, MethodType.methodType(returned, params));
    }

    @CallSite(kind = CallSite.Kind.STATIC, owner = SERVICE, method = "inotifyInit", desc = "()I", alsoIn = SERVICE)
    @Claimed(live = "INIT_LIVE")
    public static int inotifyInit() throws Throwable {
        Ev ev = Ev.begin(INIT, 0, 0);
        int fd = 0;
        int errno = 0;
        if (ev.live()) {
            try {
                fd = (int) INIT_LIVE.invokeExact();
            } catch (Throwable t) {
                errno = Unix.errno(t);
            }
        }
        return checked(ev, errno, fd);
    }

    @CallSite(kind = CallSite.Kind.STATIC, owner = SERVICE, method = "configureBlocking", desc = "(IZ)V", alsoIn = SERVICE)
    @Claimed(live = "BLOCKING_LIVE")
    public static void configureBlocking(int fd, boolean blocking) throws Throwable {
        Ev ev = Ev.begin(BLOCKING, 0, blocking ? 1 : 0);
        int errno = 0;
        if (ev.live()) {
            try {
                BLOCKING_LIVE.invokeExact(fd, blocking);
            } catch (Throwable t) {
                errno = Unix.errno(t);
            }
        }
        checked(ev, errno, 0);
    }

    @CallSite(kind = CallSite.Kind.STATIC, owner = SERVICE, method = "socketpair", desc = "([I)V", alsoIn = SERVICE)
    @Claimed(live = "PAIR_LIVE")
    public static void socketpair(int[] fds) throws Throwable {
        Ev ev = Ev.begin(PAIR, 0, 0);
        int errno = 0;
        if (ev.live()) {
            try {
                PAIR_LIVE.invokeExact(fds);
            } catch (Throwable t) {
                errno = Unix.errno(t);
            }
        }
        errno = ev.i(errno);
        if (errno == 0) {
            fds[0] = ev.i(fds[0]);
            fds[1] = ev.i(fds[1]);
        }
        ev.end();
        Unix.check(errno);
    }

    /** {@code path} is the address of the directory's name, a C string: its bytes are the digest. */
    @CallSite(kind = CallSite.Kind.STATIC, owner = SERVICE, method = "inotifyAddWatch", desc = "(IJI)I",
            alsoIn = {SERVICE, POLLER})
    @Claimed(live = "ADD_LIVE")
    public static int inotifyAddWatch(int fd, long path, int mask) throws Throwable {
        Ev ev = Ev.begin(ADD, 0, 31 * cStringDigest(path) + mask);
        int wd = 0;
        int errno = 0;
        if (ev.live()) {
            try {
                wd = (int) ADD_LIVE.invokeExact(fd, path, mask);
            } catch (Throwable t) {
                errno = Unix.errno(t);
            }
        }
        return checked(ev, errno, wd);
    }

    @CallSite(kind = CallSite.Kind.STATIC, owner = SERVICE, method = "inotifyRmWatch", desc = "(II)V",
            alsoIn = {SERVICE, POLLER})
    @Claimed(live = "REMOVE_LIVE")
    public static void inotifyRmWatch(int fd, int wd) throws Throwable {
        Ev ev = Ev.begin(REMOVE, 0, wd);
        int errno = 0;
        if (ev.live()) {
            try {
                REMOVE_LIVE.invokeExact(fd, wd);
            } catch (Throwable t) {
                errno = Unix.errno(t);
            }
        }
        checked(ev, errno, 0);
    }

    /** The poller's wait for the kernel's events or a wake-up: how many of the two are ready. */
    @CallSite(kind = CallSite.Kind.STATIC, owner = SERVICE, method = "poll", desc = "(II)I", alsoIn = POLLER)
    @Claimed(live = "POLL_LIVE")
    public static int poll(int inotify, int wakeups) throws Throwable {
        Ev ev = Ev.begin(POLL, 0, 0);
        int ready = 0;
        int errno = 0;
        if (ev.live()) {
            try {
                ready = (int) POLL_LIVE.invokeExact(inotify, wakeups);
            } catch (Throwable t) {
                errno = Unix.errno(t);
            }
        }
        return checked(ev, errno, ready);
    }

    /** The kernel's events, or a wake-up's byte, read into the poller's native buffer at {@code address}. */
    @CallSite(kind = CallSite.Kind.STATIC, owner = NioFileSystemOps.D, method = "read", desc = "(IJI)I", alsoIn = POLLER)
    @Claimed(live = "READ_LIVE")
    public static int read(int fd, long address, int len) throws Throwable {
        Ev ev = Ev.begin(READ, 0, len);
        int n = 0;
        int errno = 0;
        if (ev.live()) {
            try {
                n = (int) READ_LIVE.invokeExact(fd, address, len);
            } catch (Throwable t) {
                errno = Unix.errno(t);
            }
        }
        errno = ev.i(errno);
        if (errno == 0) {
            n = ev.i(n);
            byte[] bytes = new byte[n];
            if (ev.live()) {
                UNSAFE.copyMemory(null, address, bytes, Unsafe.ARRAY_BYTE_BASE_OFFSET, n);
            }
            ev.fill(bytes, 0, n);
            if (!ev.live()) {
                UNSAFE.copyMemory(bytes, Unsafe.ARRAY_BYTE_BASE_OFFSET, null, address, n);
            }
        }
        ev.end();
        Unix.check(errno);
        return n;
    }

    /** A program's thread wakes the poller: a registration, a cancel or a close is waiting. */
    @CallSite(kind = CallSite.Kind.STATIC, owner = NioFileSystemOps.D, method = "write", desc = "(IJI)I", alsoIn = POLLER)
    @Claimed(live = "WRITE_LIVE")
    public static int write(int fd, long address, int len) throws Throwable {
        Ev ev = Ev.begin(WAKE, 0, len);
        int n = 0;
        int errno = 0;
        if (ev.live()) {
            try {
                n = (int) WRITE_LIVE.invokeExact(fd, address, len);
            } catch (Throwable t) {
                errno = Unix.errno(t);
            }
        }
        return checked(ev, errno, n);
    }

    /** Codes the errno and, if none, the result; ends the event and throws the errno's exception. */
    private static int checked(Ev ev, int errno, int result) throws Throwable {
        errno = ev.i(errno);
        int r = errno == 0 ? ev.i(result) : 0;
        ev.end();
        Unix.check(errno);
        return r;
    }

    /** The digest of the C string at {@code address}. */
    private static int cStringDigest(long address) {
        int n = 0;
        while (UNSAFE.getByte(address + n) != 0) {
            n++;
        }
        byte[] b = new byte[n];
        UNSAFE.copyMemory(null, address, b, Unsafe.ARRAY_BYTE_BASE_OFFSET, n);
        return Digest.of(b, 0, n);
    }
}
