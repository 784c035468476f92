package dev.reprise.agent.ops.net;

import java.io.FileDescriptor;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodType;

import dev.reprise.agent.ops.CallSite;
import dev.reprise.agent.ops.Claimed;
import dev.reprise.agent.runtime.events.Digest;
import dev.reprise.agent.runtime.events.Ev;
import dev.reprise.agent.runtime.events.Op;
import dev.reprise.agent.runtime.jdk.JdkMethods;

/**
 * A socket's traffic: every read and write of a stream or datagram socket, which the JDK makes
 * through the natives of {@code SocketDispatcher} and {@code DatagramDispatcher} (on JDK 17 a
 * stream socket writes through {@code FileDispatcherImpl}'s, from {@code SocketDispatcher}), and
 * the addressed datagrams of {@code DatagramChannelImpl}. A read logs how much it got and the
 * bytes, which a replay puts where the read would have, with the same boundaries; a write logs
 * how much it took (a partial write replays as one) and is checked by the digest of the bytes
 * offered, never sent on replay.
 */
public final class SocketIo {
    private static final String FD = "Ljava/io/FileDescriptor;";
    private static final String SOCKETS = "sun/nio/ch/SocketDispatcher";
    private static final String DATAGRAMS = "sun/nio/ch/DatagramDispatcher";
    private static final String CHANNEL = "sun/nio/ch/DatagramChannelImpl";
    private static final String FILES = "sun/nio/ch/FileDispatcherImpl";

    private static final Op READ = Op.named("socket.read");
    private static final Op WRITE = Op.named("socket.write");
    private static final Op RECEIVE = Op.named("socket.receive");
    private static final Op SEND = Op.named("socket.send");

    private static final MethodType READ_TYPE = MethodType.methodType(int.class, FileDescriptor.class, long.class, int.class);
    private static final MethodType VECTOR_TYPE = MethodType.methodType(long.class, FileDescriptor.class, long.class, int.class);
    private static final MethodHandle SOCKET_READ = live(SOCKETS, "read0", READ_TYPE);
    private static final MethodHandle SOCKET_READV = live(SOCKETS, "readv0", VECTOR_TYPE);
    /** JDK 25 and later; JDK 17's stream sockets write through {@code FileDispatcherImpl}. */
    private static final MethodHandle SOCKET_WRITE = liveIfPresent(SOCKETS, "write0", READ_TYPE);
    private static final MethodHandle SOCKET_WRITEV = liveIfPresent(SOCKETS, "writev0", VECTOR_TYPE);
    private static final MethodHandle FILE_WRITE = liveIfPresent(FILES, "write0", READ_TYPE);
    private static final MethodHandle FILE_WRITEV = liveIfPresent(FILES, "writev0", VECTOR_TYPE);
    private static final MethodHandle DATAGRAM_READ = live(DATAGRAMS, "read0", READ_TYPE);
    private static final MethodHandle DATAGRAM_READV = live(DATAGRAMS, "readv0", VECTOR_TYPE);
    private static final MethodHandle DATAGRAM_WRITE = live(DATAGRAMS, "write0", READ_TYPE);
    private static final MethodHandle DATAGRAM_WRITEV = live(DATAGRAMS, "writev0", VECTOR_TYPE);
    private static final MethodHandle RECEIVE_LIVE = live(CHANNEL, "receive0",
            MethodType.methodType(int.class, FileDescriptor.class, long.class, int.class, long.class, boolean.class));
    private static final MethodHandle SEND_LIVE = live(CHANNEL, "send0",
            MethodType.methodType(int.class, FileDescriptor.class, long.class, int.class, long.class, int.class));

    private SocketIo() {
    }

    /**
     * The size of the native socket address a datagram's sender is written into: asked of the JDK
     * at the first datagram received, as asking loads its network libraries.
     */
    private static final class SenderAddress {
        static final int SIZE = socketAddressSize();
    }

    private static MethodHandle live(String owner, String name, MethodType type) {
        return JdkMethods.statik(JdkMethods.jdkClass(owner.replace('/', '.')), name, type);
    }

    private static MethodHandle liveIfPresent(String owner, String name, MethodType type) {
        return JdkMethods.statikIfPresent(owner.replace('/', '.'), name, type);
    }

    private static int socketAddressSize() {
        MethodType type = MethodType.methodType(int.class);
        try {
            MethodHandle four = live("sun/nio/ch/NativeSocketAddress", "sizeofSockAddr4", type);
            MethodHandle six = live("sun/nio/ch/NativeSocketAddress", "sizeofSockAddr6", type);
            return Math.max((int) four.invokeExact(), (int) six.invokeExact());
        } catch (Throwable t) {
            throw new IllegalStateException("cannot size a native socket address", t);
        }
    }

    @CallSite(kind = CallSite.Kind.STATIC, owner = SOCKETS, method = "read0", desc = "(" + FD + "JI)I", alsoIn = SocketOps.PKG)
    public static int read(FileDescriptor fd, long address, int len) throws Throwable {
        try {
            return read(SOCKET_READ, fd, address, len);
        } finally {
            KernelTurns.take();
        }
    }

    @CallSite(kind = CallSite.Kind.STATIC, owner = DATAGRAMS, method = "read0", desc = "(" + FD + "JI)I",
            alsoIn = SocketOps.PKG)
    public static int readDatagram(FileDescriptor fd, long address, int len) throws Throwable {
        try {
            return read(DATAGRAM_READ, fd, address, len);
        } finally {
            KernelTurns.take();
        }
    }

    @Claimed
    private static int read(MethodHandle live, FileDescriptor fd, long address, int len) throws Throwable {
        Ev ev = Ev.begin(READ, 0, len);
        int n = ev.i(ev.live() ? (int) live.invokeExact(fd, address, len) : 0);
        if (n > 0) {
            filled(ev, address, n);
        }
        return n;
    }

    /** The {@code n} bytes a read put at {@code address}: logged, or put there on replay. */
    private static void filled(Ev ev, long address, int n) {
        byte[] got = ev.blob(ev.live() ? NativeMemory.get(address, n) : null);
        if (!ev.live()) {
            NativeMemory.put(address, got, n);
        }
    }

    @CallSite(kind = CallSite.Kind.STATIC, owner = SOCKETS, method = "readv0", desc = "(" + FD + "JI)J", alsoIn = SocketOps.PKG)
    public static long readv(FileDescriptor fd, long iov, int count) throws Throwable {
        try {
            return readv(SOCKET_READV, fd, iov, count);
        } finally {
            KernelTurns.take();
        }
    }

    @CallSite(kind = CallSite.Kind.STATIC, owner = DATAGRAMS, method = "readv0", desc = "(" + FD + "JI)J",
            alsoIn = SocketOps.PKG)
    public static long readvDatagram(FileDescriptor fd, long iov, int count) throws Throwable {
        try {
            return readv(DATAGRAM_READV, fd, iov, count);
        } finally {
            KernelTurns.take();
        }
    }

    @Claimed
    private static long readv(MethodHandle live, FileDescriptor fd, long iov, int count) throws Throwable {
        Ev ev = Ev.begin(READ, 0, -count);
        long n = ev.j(ev.live() ? (long) live.invokeExact(fd, iov, count) : 0);
        if (n > 0) {
            byte[] got = ev.blob(ev.live() ? NativeMemory.gather(iov, count, n) : null);
            if (!ev.live()) {
                NativeMemory.scatter(iov, count, got);
            }
        }
        return n;
    }

    @CallSite(kind = CallSite.Kind.STATIC, owner = SOCKETS, method = "write0", desc = "(" + FD + "JI)I", alsoIn = SocketOps.PKG)
    public static int write(FileDescriptor fd, long address, int len) throws Throwable {
        KernelTurns.take();
        return write(SOCKET_WRITE, fd, address, len);
    }

    /** JDK 17: a stream socket's write, which {@code SocketDispatcher} makes through the file dispatcher's native. */
    @CallSite(kind = CallSite.Kind.STATIC, owner = FILES, method = "write0", desc = "(" + FD + "JI)I", alsoIn = SOCKETS)
    public static int writeThroughFiles(FileDescriptor fd, long address, int len) throws Throwable {
        KernelTurns.take();
        return write(FILE_WRITE, fd, address, len);
    }

    @CallSite(kind = CallSite.Kind.STATIC, owner = DATAGRAMS, method = "write0", desc = "(" + FD + "JI)I",
            alsoIn = SocketOps.PKG)
    public static int writeDatagram(FileDescriptor fd, long address, int len) throws Throwable {
        KernelTurns.take();
        return write(DATAGRAM_WRITE, fd, address, len);
    }

    @Claimed
    private static int write(MethodHandle live, FileDescriptor fd, long address, int len) throws Throwable {
        Ev ev = Ev.begin(WRITE, 0, digest(NativeMemory.get(address, Math.max(len, 0))));
        return ev.i(ev.live() ? (int) live.invokeExact(fd, address, len) : 0);
    }

    @CallSite(kind = CallSite.Kind.STATIC, owner = SOCKETS, method = "writev0", desc = "(" + FD + "JI)J",
            alsoIn = SocketOps.PKG)
    public static long writev(FileDescriptor fd, long iov, int count) throws Throwable {
        KernelTurns.take();
        return writev(SOCKET_WRITEV, fd, iov, count);
    }

    @CallSite(kind = CallSite.Kind.STATIC, owner = FILES, method = "writev0", desc = "(" + FD + "JI)J", alsoIn = SOCKETS)
    public static long writevThroughFiles(FileDescriptor fd, long iov, int count) throws Throwable {
        KernelTurns.take();
        return writev(FILE_WRITEV, fd, iov, count);
    }

    @CallSite(kind = CallSite.Kind.STATIC, owner = DATAGRAMS, method = "writev0", desc = "(" + FD + "JI)J",
            alsoIn = SocketOps.PKG)
    public static long writevDatagram(FileDescriptor fd, long iov, int count) throws Throwable {
        KernelTurns.take();
        return writev(DATAGRAM_WRITEV, fd, iov, count);
    }

    @Claimed
    private static long writev(MethodHandle live, FileDescriptor fd, long iov, int count) throws Throwable {
        Ev ev = Ev.begin(WRITE, 0, digest(NativeMemory.gather(iov, count, NativeMemory.total(iov, count))));
        return ev.j(ev.live() ? (long) live.invokeExact(fd, iov, count) : 0);
    }

    /** A datagram received: its bytes, and the sender's native address, which the JDK decodes next. */
    @CallSite(kind = CallSite.Kind.STATIC, owner = CHANNEL, method = "receive0", desc = "(" + FD + "JIJZ)I",
            alsoIn = SocketOps.PKG)
    public static int receive(FileDescriptor fd, long address, int len, long sender, boolean connected) throws Throwable {
        try {
            return receiveEvent(fd, address, len, sender, connected);
        } finally {
            KernelTurns.take();
        }
    }

    @Claimed(live = "RECEIVE_LIVE")
    private static int receiveEvent(FileDescriptor fd, long address, int len, long sender, boolean connected) throws Throwable {
        Ev ev = Ev.begin(RECEIVE, 0, len);
        int n = ev.i(ev.live() ? (int) RECEIVE_LIVE.invokeExact(fd, address, len, sender, connected) : 0);
        if (n >= 0) {
            if (n > 0) {
                filled(ev, address, n);
            }
            filled(ev, sender, SenderAddress.SIZE);
        }
        return n;
    }

    @CallSite(kind = CallSite.Kind.STATIC, owner = CHANNEL, method = "send0", desc = "(" + FD + "JIJI)I",
            alsoIn = SocketOps.PKG)
    public static int send(FileDescriptor fd, long address, int len, long target, int targetLen) throws Throwable {
        KernelTurns.take();
        return sendEvent(fd, address, len, target, targetLen);
    }

    @Claimed(live = "SEND_LIVE")
    private static int sendEvent(FileDescriptor fd, long address, int len, long target, int targetLen) throws Throwable {
        Ev ev = Ev.begin(SEND, 0, 31 * digest(NativeMemory.get(address, Math.max(len, 0))) + targetLen);
        return ev.i(ev.live() ? (int) SEND_LIVE.invokeExact(fd, address, len, target, targetLen) : 0);
    }

    private static int digest(byte[] b) {
        return Digest.of(b, 0, b.length);
    }
}
