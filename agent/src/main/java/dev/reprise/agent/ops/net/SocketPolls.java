package dev.reprise.agent.ops.net;

import java.io.FileDescriptor;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodType;

import dev.reprise.agent.ops.CallSite;
import dev.reprise.agent.ops.Claimed;
import dev.reprise.agent.ops.Prologue;
import dev.reprise.agent.runtime.events.Ev;
import dev.reprise.agent.runtime.events.Op;
import dev.reprise.agent.runtime.events.Rt;
import dev.reprise.agent.runtime.jdk.JdkMethods;

/**
 * Waits for sockets to be ready: a blocking socket's {@code poll} (how {@code java.net}'s sockets
 * wait, with or without a timeout), a connection's completion, and a selector's
 * {@code epoll_wait}, whose ready list a replay writes back into the selector's event array with
 * each recorded descriptor translated to the replay's ({@link SocketDescriptors}). A replay never
 * waits here: the recorded answer, a timeout included, is returned at once. The descriptors a
 * selector wakes itself with (an {@code eventfd}, or a pipe) are real in a replay too, and
 * created here so that their recorded numbers are known.
 */
public final class SocketPolls {
    private static final String NET = "sun/nio/ch/Net";
    private static final String EPOLL = "sun/nio/ch/EPoll";
    private static final String FD = "Ljava/io/FileDescriptor;";

    private static final Op POLL = Op.named("socket.poll");
    private static final Op CONNECTED = Op.named("socket.connected");
    private static final Op CONNECT_RESULT = Op.named("socket.connect.result");
    private static final Op EPOLL_WAIT = Op.named("socket.epoll.wait");
    private static final Op WAKER = Op.named("socket.waker");

    private static final Class<?> NET_CLASS = JdkMethods.jdkClass("sun.nio.ch.Net");
    private static final Class<?> EPOLL_CLASS = JdkMethods.jdkClass("sun.nio.ch.EPoll");
    private static final MethodHandle POLL_LIVE = JdkMethods.statik(NET_CLASS, "poll",
            MethodType.methodType(int.class, FileDescriptor.class, int.class, long.class));
    private static final MethodHandle CONNECTED_LIVE = JdkMethods.statik(NET_CLASS, "pollConnect",
            MethodType.methodType(boolean.class, FileDescriptor.class, long.class));
    private static final String ASYNC_SOCKET = "sun/nio/ch/UnixAsynchronousSocketChannelImpl";
    private static final MethodHandle CONNECT_RESULT_LIVE = JdkMethods.statik(
            JdkMethods.jdkClass(ASYNC_SOCKET.replace('/', '.')), "checkConnect", MethodType.methodType(void.class, int.class));
    private static final MethodHandle WAIT_LIVE = JdkMethods.statik(EPOLL_CLASS, "wait",
            MethodType.methodType(int.class, int.class, long.class, int.class, int.class));
    private static final MethodHandle EVENTFD_LIVE = JdkMethods.statik(JdkMethods.jdkClass("sun.nio.ch.EventFD"), "eventfd0",
            MethodType.methodType(int.class));
    private static final MethodHandle PIPE_LIVE = JdkMethods.statik(JdkMethods.jdkClass("sun.nio.ch.IOUtil"), "makePipe",
            MethodType.methodType(long.class, boolean.class));

    private SocketPolls() {
    }

    /**
     * The layout of {@code struct epoll_event}, as the JDK reads it: asked of the JDK at the first
     * wait, as asking loads the JDK's network libraries, which a program without sockets never does.
     */
    private static final class Layout {
        static final int EVENT_SIZE = epollConstant("eventSize");
        static final int EVENTS_OFFSET = epollConstant("eventsOffset");
        static final int DATA_OFFSET = epollConstant("dataOffset");

        private static int epollConstant(String name) {
            try {
                return (int) JdkMethods.statik(EPOLL_CLASS, name, MethodType.methodType(int.class)).invokeExact();
            } catch (Throwable t) {
                throw new IllegalStateException("cannot read the epoll event layout", t);
            }
        }
    }

    @CallSite(kind = CallSite.Kind.STATIC, owner = NET, method = "poll", desc = "(" + FD + "IJ)I", alsoIn = SocketOps.PKG)
    public static int poll(FileDescriptor fd, int events, long timeout) throws Throwable {
        try {
            return pollEvent(fd, events, timeout);
        } finally {
            KernelTurns.take();
        }
    }

    @Claimed(live = "POLL_LIVE")
    private static int pollEvent(FileDescriptor fd, int events, long timeout) throws Throwable {
        Ev ev = Ev.begin(POLL, 0, events);
        return ev.i(ev.live() ? (int) POLL_LIVE.invokeExact(fd, events, timeout) : 0);
    }

    @CallSite(kind = CallSite.Kind.STATIC, owner = NET, method = "pollConnect", desc = "(" + FD + "J)Z", alsoIn = SocketOps.PKG)
    public static boolean pollConnect(FileDescriptor fd, long timeout) throws Throwable {
        try {
            return pollConnectEvent(fd, timeout);
        } finally {
            KernelTurns.take();
        }
    }

    @Claimed(live = "CONNECTED_LIVE")
    private static boolean pollConnectEvent(FileDescriptor fd, long timeout) throws Throwable {
        Ev ev = Ev.begin(CONNECTED, 0, 0);
        return ev.z(ev.live() && (boolean) CONNECTED_LIVE.invokeExact(fd, timeout));
    }

    /**
     * An asynchronous channel's connect, reported ready by its group's poller: whether it failed,
     * and how (a refused connection throws). A replay's socket is a stand-in, which has no result
     * to ask.
     */
    @CallSite(kind = CallSite.Kind.STATIC, owner = ASYNC_SOCKET, method = "checkConnect", desc = "(I)V", alsoIn = SocketOps.PKG)
    @Claimed(live = "CONNECT_RESULT_LIVE")
    public static void checkConnect(int fd) throws Throwable {
        Ev ev = Ev.begin(CONNECT_RESULT, 0, 0);
        if (ev.live()) {
            CONNECT_RESULT_LIVE.invokeExact(fd);
        }
    }

    /**
     * A selector's wait: how many descriptors are ready, and each one's number and ready events.
     * A replay puts the recorded numbers in place of the replay's only after the wait's turn
     * ({@link KernelTurns}): the sockets they name were made by the threads that woke it, which
     * that turn waits for (an asynchronous channel group's poller is started before the server
     * socket it reports ready).
     */
    @CallSite(kind = CallSite.Kind.STATIC, owner = EPOLL, method = "wait", desc = "(IJII)I", alsoIn = SocketOps.PKG)
    public static int epollWait(int epfd, long events, int max, int timeout) throws Throwable {
        if (!Rt.claim()) {
            try {
                return (int) WAIT_LIVE.invokeExact(epfd, events, max, timeout);
            } finally {
                KernelTurns.take();
            }
        }
        Ev ev = Ev.begin(EPOLL_WAIT, 0, 0);
        boolean replayed = !ev.live();
        int n = 0;
        try {
            n = ev.i(ev.live() ? (int) WAIT_LIVE.invokeExact(epfd, events, max, timeout) : 0);
            for (int i = 0; i < n; i++) {
                long e = events + (long) i * Layout.EVENT_SIZE;
                int fd = ev.i(ev.live() ? NativeMemory.getInt(e + Layout.DATA_OFFSET) : 0);
                int ready = ev.i(ev.live() ? NativeMemory.getInt(e + Layout.EVENTS_OFFSET) : 0);
                if (replayed) {
                    NativeMemory.putInt(e + Layout.DATA_OFFSET, fd);
                    NativeMemory.putInt(e + Layout.EVENTS_OFFSET, ready);
                }
            }
            return n;
        } catch (Throwable t) {
            throw ev.threw(t);
        } finally {
            ev.end();
            KernelTurns.take();
            for (int i = 0; replayed && i < n; i++) {
                long e = events + (long) i * Layout.EVENT_SIZE + Layout.DATA_OFFSET;
                NativeMemory.putInt(e, SocketDescriptors.live(NativeMemory.getInt(e)));
            }
        }
    }

    @CallSite(kind = CallSite.Kind.STATIC, owner = "sun/nio/ch/EventFD", method = "eventfd0", desc = "()I",
            alsoIn = SocketOps.PKG)
    @Claimed(live = "EVENTFD_LIVE")
    public static int eventfd() throws Throwable {
        Ev ev = Ev.begin(WAKER, 0, 0);
        int fd = (int) EVENTFD_LIVE.invokeExact();
        int recorded = ev.i(fd);
        if (!ev.live()) {
            SocketDescriptors.map(recorded, fd);
        }
        return fd;
    }

    @CallSite(kind = CallSite.Kind.STATIC, owner = "sun/nio/ch/IOUtil", method = "makePipe", desc = "(Z)J",
            alsoIn = SocketOps.PKG)
    @Claimed(live = "PIPE_LIVE")
    public static long pipe(boolean blocking) throws Throwable {
        Ev ev = Ev.begin(WAKER, 0, 1);
        long fds = (long) PIPE_LIVE.invokeExact(blocking);
        long recorded = ev.j(fds);
        if (!ev.live()) {
            SocketDescriptors.map((int) (recorded >>> 32), (int) (fds >>> 32));
            SocketDescriptors.map((int) recorded, (int) fds);
        }
        return fds;
    }

    /**
     * A selector's wakeup: a turn ({@link KernelTurns}) at every call, before the JDK's own test of
     * whether a wakeup is already pending, which depends on when the selector last returned.
     */
    @Prologue(owner = "sun/nio/ch/EPollSelectorImpl", method = "wakeup", desc = "()Ljava/nio/channels/Selector;",
            kind = Prologue.Kind.BEFORE)
    public static void wakeup(Object selector) {
        KernelTurns.takeClaimed();
    }

    @Prologue(owner = "sun/nio/ch/PollSelectorImpl", method = "wakeup", desc = "()Ljava/nio/channels/Selector;",
            kind = Prologue.Kind.BEFORE)
    public static void wakeupPolling(Object selector) {
        KernelTurns.takeClaimed();
    }

    /** The wakeup of an asynchronous channel group's poller, which hands it a task or an event: a turn, as a selector's. */
    @Prologue(owner = "sun/nio/ch/EPollPort", method = "wakeup", desc = "()V", kind = Prologue.Kind.BEFORE)
    public static void wakeupPort(Object port) {
        KernelTurns.takeClaimed();
    }
}
