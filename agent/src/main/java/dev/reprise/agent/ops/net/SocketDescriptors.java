package dev.reprise.agent.ops.net;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodType;
import java.util.Arrays;

import dev.reprise.agent.runtime.jdk.JdkMethods;

/**
 * The descriptors of a replay's sockets, and how the recording's descriptor numbers name them.
 * A replay opens no socket: where the recording got a socket's descriptor, the replay gets the
 * read end of a pipe of its own, which the JDK's channel code may configure, register with its
 * selectors and close like the socket it stands for, and which reaches nothing. Descriptor
 * numbers differ between a recording and its replay (a replay opens none of the program's
 * files), so what names a descriptor by number, as the ready list of an {@code epoll_wait},
 * is translated through the table kept here.
 */
final class SocketDescriptors {
    private static final MethodHandle MAKE_PIPE = JdkMethods.statik(JdkMethods.jdkClass("sun.nio.ch.IOUtil"), "makePipe",
            MethodType.methodType(long.class, boolean.class));
    private static final MethodHandle CLOSE_FD = closeIntFd();
    private static final MethodHandle GET_FD = JdkMethods.statik(JdkMethods.jdkClass("sun.nio.ch.IOUtil"), "fdVal",
            MethodType.methodType(int.class, java.io.FileDescriptor.class));
    private static final MethodHandle SET_FD = JdkMethods.statik(JdkMethods.jdkClass("sun.nio.ch.IOUtil"), "setfdVal",
            MethodType.methodType(void.class, java.io.FileDescriptor.class, int.class));

    /**
     * Replay: the replay's descriptor for each recorded one, 0 where none was seen (0 is stdin,
     * never a socket). Written under the class lock, read without it: a descriptor is mapped by
     * the thread that created it, before the program can hand it to a selector, and the
     * selector's registration queue is locked, so the selector thread that reports the
     * descriptor ready happens-after the mapping. Grown by copy, published through the volatile.
     */
    private static volatile int[] byRecorded = new int[256];

    private SocketDescriptors() {
    }

    private static MethodHandle closeIntFd() {
        MethodType type = MethodType.methodType(void.class, int.class);
        MethodHandle close = JdkMethods.statikIfPresent("sun.nio.ch.UnixFileDispatcherImpl", "closeIntFD", type);
        return close != null ? close : JdkMethods.statik(JdkMethods.jdkClass("sun.nio.ch.FileDispatcherImpl"), "closeIntFD", type);
    }

    /** Replay: a new descriptor standing for the recording's socket {@code recorded}. */
    static int standIn(int recorded) throws Throwable {
        long pipe = (long) MAKE_PIPE.invokeExact(true);
        CLOSE_FD.invokeExact((int) pipe);
        int fd = (int) (pipe >>> 32);
        map(recorded, fd);
        return fd;
    }

    /** Replay: sets {@code fd} to a stand-in for the recording's socket {@code recorded}. */
    static void standIn(java.io.FileDescriptor fd, int recorded) throws Throwable {
        SET_FD.invokeExact(fd, standIn(recorded));
    }

    /** The number of the descriptor {@code fd} holds. */
    static int valueOf(java.io.FileDescriptor fd) throws Throwable {
        return (int) GET_FD.invokeExact(fd);
    }

    /** Replay: the recording's descriptor {@code recorded} is the replay's {@code live}. */
    static synchronized void map(int recorded, int live) {
        if (recorded < 0) {
            return;
        }
        int[] t = byRecorded;
        if (recorded >= t.length) {
            t = Arrays.copyOf(t, Math.max(recorded + 1, 2 * t.length));
        }
        t[recorded] = live;
        byRecorded = t;
    }

    /** Replay: the replay's descriptor for the recording's {@code recorded}; itself if none was mapped. */
    static int live(int recorded) {
        int[] t = byRecorded;
        int live = recorded >= 0 && recorded < t.length ? t[recorded] : 0;
        return live != 0 ? live : recorded;
    }
}
