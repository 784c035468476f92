package dev.reprise.agent.ops.net;

import java.io.FileDescriptor;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodType;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;

import dev.reprise.agent.ops.CallSite;
import dev.reprise.agent.ops.Claimed;
import dev.reprise.agent.runtime.events.Digest;
import dev.reprise.agent.runtime.events.Ev;
import dev.reprise.agent.runtime.events.Op;
import dev.reprise.agent.runtime.jdk.JdkMethods;

/**
 * A socket's life: created, bound, listening, connected, accepted, asked its addresses and
 * options, shut down. Every socket API of the JDK (NIO's channels, and {@code java.net}'s
 * {@code Socket}, {@code ServerSocket} and {@code DatagramSocket}, built on them) reaches the
 * kernel through the natives of {@code sun.nio.ch.Net} and {@code UnixDomainSockets}, the same
 * on JDK 17 and 25; each is hooked at its calls in {@code sun.nio.ch}. A recording runs them and
 * logs what they answered; a replay answers from the recording and reaches nothing: a socket is
 * a stand-in descriptor ({@link SocketDescriptors}). The addresses a call names are its digest,
 * so a replay that binds or connects elsewhere diverges. The traffic itself is {@link SocketIo}'s.
 */
public final class SocketOps {
    public static final String PKG = "sun/nio/ch/";
    private static final String NET = "sun/nio/ch/Net";
    private static final String UNIX = "sun/nio/ch/UnixDomainSockets";
    private static final String FD = "Ljava/io/FileDescriptor;";
    private static final String ADDR = "Ljava/net/InetAddress;";

    private static final Op SOCKET = Op.named("socket.open");
    private static final Op BIND = Op.named("socket.bind");
    private static final Op LISTEN = Op.named("socket.listen");
    private static final Op CONNECT = Op.named("socket.connect");
    private static final Op ACCEPT = Op.named("socket.accept");
    private static final Op PORT = Op.named("socket.port");
    private static final Op ADDRESS = Op.named("socket.address");
    private static final Op GET_OPTION = Op.named("socket.option.get");
    private static final Op SET_OPTION = Op.named("socket.option.set");
    private static final Op SHUTDOWN = Op.named("socket.shutdown");
    private static final Op AVAILABLE = Op.named("socket.available");
    private static final Op URGENT = Op.named("socket.urgent");
    private static final Op MULTICAST = Op.named("socket.multicast");
    private static final Op UNIX_ADDRESS = Op.named("socket.unix.name");
    private static final Op PROBE = Op.named("socket.probe");

    private static final Class<?> NET_CLASS = JdkMethods.jdkClass("sun.nio.ch.Net");
    private static final Class<?> UNIX_CLASS = JdkMethods.jdkClass("sun.nio.ch.UnixDomainSockets");
    private static final MethodHandle SOCKET_LIVE = net("socket0", int.class, boolean.class, boolean.class, boolean.class,
            boolean.class);
    private static final MethodHandle BIND_LIVE = net("bind0", void.class, FileDescriptor.class, boolean.class,
            boolean.class, InetAddress.class, int.class);
    private static final MethodHandle LISTEN_LIVE = net("listen", void.class, FileDescriptor.class, int.class);
    private static final MethodHandle CONNECT_LIVE = net("connect0", int.class, boolean.class, FileDescriptor.class,
            InetAddress.class, int.class);
    private static final MethodHandle ACCEPT_LIVE = net("accept", int.class, FileDescriptor.class, FileDescriptor.class,
            InetSocketAddress[].class);
    private static final MethodHandle LOCAL_PORT_LIVE = net("localPort", int.class, FileDescriptor.class);
    private static final MethodHandle REMOTE_PORT_LIVE = net("remotePort", int.class, FileDescriptor.class);
    private static final MethodHandle LOCAL_ADDRESS_LIVE = net("localInetAddress", InetAddress.class, FileDescriptor.class);
    private static final MethodHandle REMOTE_ADDRESS_LIVE = net("remoteInetAddress", InetAddress.class, FileDescriptor.class);
    private static final MethodHandle GET_OPTION_LIVE = net("getIntOption0", int.class, FileDescriptor.class,
            boolean.class, int.class, int.class);
    private static final MethodHandle SET_OPTION_LIVE = net("setIntOption0", void.class, FileDescriptor.class,
            boolean.class, int.class, int.class, int.class, boolean.class);
    private static final MethodHandle SHUTDOWN_LIVE = net("shutdown", void.class, FileDescriptor.class, int.class);
    private static final MethodHandle AVAILABLE_LIVE = net("available", int.class, FileDescriptor.class);
    private static final MethodHandle SEND_URGENT_LIVE = net("sendOOB", int.class, FileDescriptor.class, byte.class);
    private static final MethodHandle DISCARD_URGENT_LIVE = net("discardOOB", boolean.class, FileDescriptor.class);
    private static final MethodHandle JOIN4_LIVE = net("joinOrDrop4", int.class, boolean.class, FileDescriptor.class,
            int.class, int.class, int.class);
    private static final MethodHandle JOIN6_LIVE = net("joinOrDrop6", int.class, boolean.class, FileDescriptor.class,
            byte[].class, int.class, byte[].class);
    private static final MethodHandle BLOCK4_LIVE = net("blockOrUnblock4", int.class, boolean.class, FileDescriptor.class,
            int.class, int.class, int.class);
    private static final MethodHandle BLOCK6_LIVE = net("blockOrUnblock6", int.class, boolean.class, FileDescriptor.class,
            byte[].class, int.class, byte[].class);
    private static final MethodHandle SET_INTERFACE4_LIVE = net("setInterface4", void.class, FileDescriptor.class, int.class);
    private static final MethodHandle SET_INTERFACE6_LIVE = net("setInterface6", void.class, FileDescriptor.class, int.class);
    private static final MethodHandle GET_INTERFACE4_LIVE = net("getInterface4", int.class, FileDescriptor.class);
    private static final MethodHandle GET_INTERFACE6_LIVE = net("getInterface6", int.class, FileDescriptor.class);
    private static final MethodHandle IPV6_LIVE = net("isIPv6Available0", boolean.class);
    private static final MethodHandle REUSE_PORT_LIVE = net("isReusePortAvailable0", boolean.class);
    private static final MethodHandle EXCLUSIVE_BIND_LIVE = net("isExclusiveBindAvailable", int.class);
    private static final MethodHandle JOIN_FROM_SIX_LIVE = net("canIPv6SocketJoinIPv4Group0", boolean.class);
    private static final MethodHandle JOIN_SIX_LIVE = net("canJoin6WithIPv4Group0", boolean.class);
    private static final MethodHandle SIX_OPTIONS_LIVE = net("canUseIPv6OptionsWithIPv4LocalAddress0", boolean.class);
    private static final MethodHandle BOTH_OPTIONS_LIVE = net("shouldSetBothIPv4AndIPv6Options0", boolean.class);
    /** JDK 21 and later. */
    private static final MethodHandle SHUTDOWN_FIRST_LIVE = JdkMethods.statikIfPresent("sun.nio.ch.Net",
            "shouldShutdownWriteBeforeClose0", MethodType.methodType(boolean.class));
    private static final MethodHandle UNIX_SOCKET_LIVE = unix("socket0", int.class);
    private static final MethodHandle UNIX_BIND_LIVE = unix("bind0", void.class, FileDescriptor.class, byte[].class);
    private static final MethodHandle UNIX_CONNECT_LIVE = unix("connect0", int.class, FileDescriptor.class, byte[].class);
    private static final MethodHandle UNIX_ACCEPT_LIVE = unix("accept0", int.class, FileDescriptor.class,
            FileDescriptor.class, Object[].class);
    private static final MethodHandle UNIX_ADDRESS_LIVE = unix("localAddress0", byte[].class, FileDescriptor.class);

    private SocketOps() {
    }

    private static MethodHandle net(String name, Class<?> returns, Class<?>... params) {
        return JdkMethods.statik(NET_CLASS, name, MethodType.methodType(returns, params));
    }

    private static MethodHandle unix(String name, Class<?> returns, Class<?>... params) {
        return JdkMethods.statik(UNIX_CLASS, name, MethodType.methodType(returns, params));
    }

    @CallSite(kind = CallSite.Kind.STATIC, owner = NET, method = "isIPv6Available0", desc = "()Z", alsoIn = PKG)
    @Claimed(live = "IPV6_LIVE")
    public static boolean ipv6() throws Throwable {
        return probe(PROBE, IPV6_LIVE, 0);
    }

    @CallSite(kind = CallSite.Kind.STATIC, owner = NET, method = "isReusePortAvailable0", desc = "()Z", alsoIn = PKG)
    @Claimed(live = "REUSE_PORT_LIVE")
    public static boolean reusePort() throws Throwable {
        return probe(PROBE, REUSE_PORT_LIVE, 1);
    }

    @CallSite(kind = CallSite.Kind.STATIC, owner = NET, method = "canIPv6SocketJoinIPv4Group0", desc = "()Z", alsoIn = PKG)
    @Claimed(live = "JOIN_FROM_SIX_LIVE")
    public static boolean joinFromSix() throws Throwable {
        return probe(PROBE, JOIN_FROM_SIX_LIVE, 2);
    }

    @CallSite(kind = CallSite.Kind.STATIC, owner = NET, method = "canJoin6WithIPv4Group0", desc = "()Z", alsoIn = PKG)
    @Claimed(live = "JOIN_SIX_LIVE")
    public static boolean joinSix() throws Throwable {
        return probe(PROBE, JOIN_SIX_LIVE, 3);
    }

    @CallSite(kind = CallSite.Kind.STATIC, owner = NET, method = "canUseIPv6OptionsWithIPv4LocalAddress0", desc = "()Z",
            alsoIn = PKG)
    @Claimed(live = "SIX_OPTIONS_LIVE")
    public static boolean sixOptions() throws Throwable {
        return probe(PROBE, SIX_OPTIONS_LIVE, 4);
    }

    @CallSite(kind = CallSite.Kind.STATIC, owner = NET, method = "shouldSetBothIPv4AndIPv6Options0", desc = "()Z",
            alsoIn = PKG)
    @Claimed(live = "BOTH_OPTIONS_LIVE")
    public static boolean bothOptions() throws Throwable {
        return probe(PROBE, BOTH_OPTIONS_LIVE, 5);
    }

    @CallSite(kind = CallSite.Kind.STATIC, owner = NET, method = "shouldShutdownWriteBeforeClose0", desc = "()Z",
            alsoIn = PKG)
    @Claimed(live = "SHUTDOWN_FIRST_LIVE")
    public static boolean shutdownFirst() throws Throwable {
        return probe(PROBE, SHUTDOWN_FIRST_LIVE, 6);
    }

    /**
     * What the machine's network stack can do, which the JDK asks once and which decides how it
     * makes every socket (IPv6 or IPv4, which options): the recording's machine's answer, as
     * event {@code op} with digest {@code which}.
     */
    static boolean probe(Op op, MethodHandle live, int which) throws Throwable {
        Ev ev = Ev.begin(op, 0, which);
        return ev.z(ev.live() && (boolean) live.invokeExact());
    }

    @CallSite(kind = CallSite.Kind.STATIC, owner = NET, method = "isExclusiveBindAvailable", desc = "()I", alsoIn = PKG)
    @Claimed(live = "EXCLUSIVE_BIND_LIVE")
    public static int exclusiveBind() throws Throwable {
        Ev ev = Ev.begin(PROBE, 0, 7);
        return ev.i(ev.live() ? (int) EXCLUSIVE_BIND_LIVE.invokeExact() : 0);
    }

    @CallSite(kind = CallSite.Kind.STATIC, owner = NET, method = "socket0", desc = "(ZZZZ)I", alsoIn = PKG)
    @Claimed(live = "SOCKET_LIVE")
    public static int socket(boolean preferIPv6, boolean stream, boolean reuse, boolean fastLoopback) throws Throwable {
        Ev ev = Ev.begin(SOCKET, 0, (preferIPv6 ? 1 : 0) | (stream ? 2 : 0));
        return opened(ev, ev.live() ? (int) SOCKET_LIVE.invokeExact(preferIPv6, stream, reuse, fastLoopback) : 0);
    }

    @CallSite(kind = CallSite.Kind.STATIC, owner = UNIX, method = "socket0", desc = "()I", alsoIn = PKG)
    @Claimed(live = "UNIX_SOCKET_LIVE")
    public static int unixSocket() throws Throwable {
        Ev ev = Ev.begin(SOCKET, 0, 4);
        return opened(ev, ev.live() ? (int) UNIX_SOCKET_LIVE.invokeExact() : 0);
    }

    /** The descriptor of a socket created: the recording's, logged; on replay, a stand-in for it. */
    private static int opened(Ev ev, int fd) throws Throwable {
        int recorded = ev.i(fd);
        return ev.live() ? fd : SocketDescriptors.standIn(recorded);
    }

    @CallSite(kind = CallSite.Kind.STATIC, owner = NET, method = "bind0", desc = "(" + FD + "ZZ" + ADDR + "I)V", alsoIn = PKG)
    @Claimed(live = "BIND_LIVE")
    public static void bind(FileDescriptor fd, boolean preferIPv6, boolean exclusive, InetAddress addr, int port)
            throws Throwable {
        Ev ev = Ev.begin(BIND, 0, digest(addr, port));
        if (ev.live()) {
            BIND_LIVE.invokeExact(fd, preferIPv6, exclusive, addr, port);
        }
    }

    @CallSite(kind = CallSite.Kind.STATIC, owner = UNIX, method = "bind0", desc = "(" + FD + "[B)V", alsoIn = PKG)
    @Claimed(live = "UNIX_BIND_LIVE")
    public static void unixBind(FileDescriptor fd, byte[] path) throws Throwable {
        Ev ev = Ev.begin(BIND, 0, path == null ? 0 : Digest.of(path, 0, path.length));
        if (ev.live()) {
            UNIX_BIND_LIVE.invokeExact(fd, path);
        }
    }

    @CallSite(kind = CallSite.Kind.STATIC, owner = NET, method = "listen", desc = "(" + FD + "I)V", alsoIn = PKG)
    @Claimed(live = "LISTEN_LIVE")
    public static void listen(FileDescriptor fd, int backlog) throws Throwable {
        Ev ev = Ev.begin(LISTEN, 0, backlog);
        if (ev.live()) {
            LISTEN_LIVE.invokeExact(fd, backlog);
        }
    }

    /** Connects, or starts to: 1 once connected, or the JDK's status for a connection in progress. */
    @CallSite(kind = CallSite.Kind.STATIC, owner = NET, method = "connect0", desc = "(Z" + FD + ADDR + "I)I", alsoIn = PKG)
    public static int connect(boolean preferIPv6, FileDescriptor fd, InetAddress remote, int port) throws Throwable {
        KernelTurns.take();
        return connectEvent(preferIPv6, fd, remote, port);
    }

    @Claimed(live = "CONNECT_LIVE")
    private static int connectEvent(boolean preferIPv6, FileDescriptor fd, InetAddress remote, int port) throws Throwable {
        Ev ev = Ev.begin(CONNECT, 0, digest(remote, port));
        return ev.i(ev.live() ? (int) CONNECT_LIVE.invokeExact(preferIPv6, fd, remote, port) : 0);
    }

    @CallSite(kind = CallSite.Kind.STATIC, owner = UNIX, method = "connect0", desc = "(" + FD + "[B)I", alsoIn = PKG)
    public static int unixConnect(FileDescriptor fd, byte[] path) throws Throwable {
        KernelTurns.take();
        return unixConnectEvent(fd, path);
    }

    @Claimed(live = "UNIX_CONNECT_LIVE")
    private static int unixConnectEvent(FileDescriptor fd, byte[] path) throws Throwable {
        Ev ev = Ev.begin(CONNECT, 0, path == null ? 0 : Digest.of(path, 0, path.length));
        return ev.i(ev.live() ? (int) UNIX_CONNECT_LIVE.invokeExact(fd, path) : 0);
    }

    /**
     * Accepts a connection, or finds none waiting: the count accepted, the new socket's descriptor
     * (a stand-in on replay) and the peer's address.
     */
    @CallSite(kind = CallSite.Kind.STATIC, owner = NET, method = "accept",
            desc = "(" + FD + FD + "[Ljava/net/InetSocketAddress;)I", alsoIn = PKG)
    public static int accept(FileDescriptor fd, FileDescriptor newfd, InetSocketAddress[] isaa) throws Throwable {
        try {
            return acceptEvent(fd, newfd, isaa);
        } finally {
            KernelTurns.take();
        }
    }

    @Claimed(live = "ACCEPT_LIVE")
    private static int acceptEvent(FileDescriptor fd, FileDescriptor newfd, InetSocketAddress[] isaa) throws Throwable {
        Ev ev = Ev.begin(ACCEPT, 0, 0);
        int n = ev.i(ev.live() ? (int) ACCEPT_LIVE.invokeExact(fd, newfd, isaa) : 0);
        if (n > 0) {
            accepted(ev, newfd);
            InetAddress peer = address(ev, null, ev.live() ? isaa[0].getAddress() : null);
            int port = ev.i(ev.live() ? isaa[0].getPort() : 0);
            if (!ev.live()) {
                isaa[0] = new InetSocketAddress(peer, port);
            }
        }
        return n;
    }

    @CallSite(kind = CallSite.Kind.STATIC, owner = UNIX, method = "accept0", desc = "(" + FD + FD + "[Ljava/lang/Object;)I",
            alsoIn = PKG)
    public static int unixAccept(FileDescriptor fd, FileDescriptor newfd, Object[] peer) throws Throwable {
        try {
            return unixAcceptEvent(fd, newfd, peer);
        } finally {
            KernelTurns.take();
        }
    }

    @Claimed(live = "UNIX_ACCEPT_LIVE")
    private static int unixAcceptEvent(FileDescriptor fd, FileDescriptor newfd, Object[] peer) throws Throwable {
        Ev ev = Ev.begin(ACCEPT, 0, 4);
        int n = ev.i(ev.live() ? (int) UNIX_ACCEPT_LIVE.invokeExact(fd, newfd, peer) : 0);
        if (n > 0) {
            accepted(ev, newfd);
            peer[0] = ev.blob(ev.live() ? (byte[]) peer[0] : null);
        }
        return n;
    }

    private static void accepted(Ev ev, FileDescriptor newfd) throws Throwable {
        int recorded = ev.i(ev.live() ? SocketDescriptors.valueOf(newfd) : 0);
        if (!ev.live()) {
            SocketDescriptors.standIn(newfd, recorded);
        }
    }

    @CallSite(kind = CallSite.Kind.STATIC, owner = NET, method = "localPort", desc = "(" + FD + ")I", alsoIn = PKG)
    @Claimed(live = "LOCAL_PORT_LIVE")
    public static int localPort(FileDescriptor fd) throws Throwable {
        return number(PORT, LOCAL_PORT_LIVE, fd, 0);
    }

    @CallSite(kind = CallSite.Kind.STATIC, owner = NET, method = "remotePort", desc = "(" + FD + ")I", alsoIn = PKG)
    @Claimed(live = "REMOTE_PORT_LIVE")
    public static int remotePort(FileDescriptor fd) throws Throwable {
        return number(PORT, REMOTE_PORT_LIVE, fd, 1);
    }

    private static int number(Op op, MethodHandle live, FileDescriptor fd, int which) throws Throwable {
        Ev ev = Ev.begin(op, 0, which);
        return ev.i(ev.live() ? (int) live.invokeExact(fd) : 0);
    }

    @CallSite(kind = CallSite.Kind.STATIC, owner = NET, method = "localInetAddress", desc = "(" + FD + ")" + ADDR,
            alsoIn = PKG)
    @Claimed(live = "LOCAL_ADDRESS_LIVE")
    public static InetAddress localAddress(FileDescriptor fd) throws Throwable {
        return address(LOCAL_ADDRESS_LIVE, fd, 0);
    }

    @CallSite(kind = CallSite.Kind.STATIC, owner = NET, method = "remoteInetAddress", desc = "(" + FD + ")" + ADDR,
            alsoIn = PKG)
    @Claimed(live = "REMOTE_ADDRESS_LIVE")
    public static InetAddress remoteAddress(FileDescriptor fd) throws Throwable {
        return address(REMOTE_ADDRESS_LIVE, fd, 1);
    }

    private static InetAddress address(MethodHandle live, FileDescriptor fd, int which) throws Throwable {
        Ev ev = Ev.begin(ADDRESS, 0, which);
        return address(ev, null, ev.live() ? (InetAddress) live.invokeExact(fd) : null);
    }

    @CallSite(kind = CallSite.Kind.STATIC, owner = UNIX, method = "localAddress0", desc = "(" + FD + ")[B", alsoIn = PKG)
    @Claimed(live = "UNIX_ADDRESS_LIVE")
    public static byte[] unixAddress(FileDescriptor fd) throws Throwable {
        Ev ev = Ev.begin(UNIX_ADDRESS, 0, 0);
        return ev.blob(ev.live() ? (byte[]) UNIX_ADDRESS_LIVE.invokeExact(fd) : null);
    }

    /**
     * An address as a value: its bytes and, for IPv6, its scope. Kernel answers carry no host
     * name, so none is logged: a replay builds the address without a lookup, named {@code host}
     * (null for a kernel's answer, the name asked for for a lookup's).
     */
    static InetAddress address(Ev ev, String host, InetAddress live) throws java.net.UnknownHostException {
        byte[] bytes = ev.blob(live == null ? new byte[0] : live.getAddress());
        int scope = ev.i(live instanceof Inet6Address six ? six.getScopeId() : 0);
        if (ev.live()) {
            return live;
        }
        if (bytes.length == 0) {
            return null;
        }
        return bytes.length == 16 && scope != 0 ? Inet6Address.getByAddress(host, bytes, scope)
                : InetAddress.getByAddress(host, bytes);
    }

    private static int digest(InetAddress addr, int port) {
        byte[] b = addr == null ? new byte[0] : addr.getAddress();
        return 31 * Digest.of(b, 0, b.length) + port;
    }

    @CallSite(kind = CallSite.Kind.STATIC, owner = NET, method = "getIntOption0", desc = "(" + FD + "ZII)I", alsoIn = PKG)
    @Claimed(live = "GET_OPTION_LIVE")
    public static int getOption(FileDescriptor fd, boolean mayNeedConversion, int level, int opt) throws Throwable {
        Ev ev = Ev.begin(GET_OPTION, 0, 31 * level + opt);
        return ev.i(ev.live() ? (int) GET_OPTION_LIVE.invokeExact(fd, mayNeedConversion, level, opt) : 0);
    }

    @CallSite(kind = CallSite.Kind.STATIC, owner = NET, method = "setIntOption0", desc = "(" + FD + "ZIIIZ)V", alsoIn = PKG)
    @Claimed(live = "SET_OPTION_LIVE")
    public static void setOption(FileDescriptor fd, boolean mayNeedConversion, int level, int opt, int arg, boolean isIPv6)
            throws Throwable {
        Ev ev = Ev.begin(SET_OPTION, 0, 31 * (31 * level + opt) + arg);
        if (ev.live()) {
            SET_OPTION_LIVE.invokeExact(fd, mayNeedConversion, level, opt, arg, isIPv6);
        }
    }

    @CallSite(kind = CallSite.Kind.STATIC, owner = NET, method = "shutdown", desc = "(" + FD + "I)V", alsoIn = PKG)
    public static void shutdown(FileDescriptor fd, int how) throws Throwable {
        KernelTurns.take();
        shutdownEvent(fd, how);
    }

    @Claimed(live = "SHUTDOWN_LIVE")
    private static void shutdownEvent(FileDescriptor fd, int how) throws Throwable {
        Ev ev = Ev.begin(SHUTDOWN, 0, how);
        if (ev.live()) {
            SHUTDOWN_LIVE.invokeExact(fd, how);
        }
    }

    @CallSite(kind = CallSite.Kind.STATIC, owner = NET, method = "available", desc = "(" + FD + ")I", alsoIn = PKG)
    public static int available(FileDescriptor fd) throws Throwable {
        try {
            return availableEvent(fd);
        } finally {
            KernelTurns.take();
        }
    }

    @Claimed(live = "AVAILABLE_LIVE")
    private static int availableEvent(FileDescriptor fd) throws Throwable {
        Ev ev = Ev.begin(AVAILABLE, 0, 0);
        return ev.i(ev.live() ? (int) AVAILABLE_LIVE.invokeExact(fd) : 0);
    }

    @CallSite(kind = CallSite.Kind.STATIC, owner = NET, method = "sendOOB", desc = "(" + FD + "B)I", alsoIn = PKG)
    @Claimed(live = "SEND_URGENT_LIVE")
    public static int sendUrgent(FileDescriptor fd, byte data) throws Throwable {
        Ev ev = Ev.begin(URGENT, 0, data);
        return ev.i(ev.live() ? (int) SEND_URGENT_LIVE.invokeExact(fd, data) : 0);
    }

    @CallSite(kind = CallSite.Kind.STATIC, owner = NET, method = "discardOOB", desc = "(" + FD + ")Z", alsoIn = PKG)
    @Claimed(live = "DISCARD_URGENT_LIVE")
    public static boolean discardUrgent(FileDescriptor fd) throws Throwable {
        Ev ev = Ev.begin(URGENT, 0, -1);
        return ev.z(ev.live() && (boolean) DISCARD_URGENT_LIVE.invokeExact(fd));
    }

    @CallSite(kind = CallSite.Kind.STATIC, owner = NET, method = "joinOrDrop4", desc = "(Z" + FD + "III)I", alsoIn = PKG)
    @Claimed(live = "JOIN4_LIVE")
    public static int joinOrDrop4(boolean join, FileDescriptor fd, int group, int interf, int source) throws Throwable {
        return multicast4(JOIN4_LIVE, join, fd, group, interf, source, 1);
    }

    @CallSite(kind = CallSite.Kind.STATIC, owner = NET, method = "blockOrUnblock4", desc = "(Z" + FD + "III)I", alsoIn = PKG)
    @Claimed(live = "BLOCK4_LIVE")
    public static int blockOrUnblock4(boolean block, FileDescriptor fd, int group, int interf, int source) throws Throwable {
        return multicast4(BLOCK4_LIVE, block, fd, group, interf, source, 2);
    }

    private static int multicast4(MethodHandle live, boolean on, FileDescriptor fd, int group, int interf, int source,
            int which) throws Throwable {
        Ev ev = Ev.begin(MULTICAST, 0, 31 * (31 * which + (on ? 1 : 0)) + group);
        return ev.i(ev.live() ? (int) live.invokeExact(on, fd, group, interf, source) : 0);
    }

    @CallSite(kind = CallSite.Kind.STATIC, owner = NET, method = "joinOrDrop6", desc = "(Z" + FD + "[BI[B)I", alsoIn = PKG)
    @Claimed(live = "JOIN6_LIVE")
    public static int joinOrDrop6(boolean join, FileDescriptor fd, byte[] group, int index, byte[] source) throws Throwable {
        return multicast6(JOIN6_LIVE, join, fd, group, index, source, 3);
    }

    @CallSite(kind = CallSite.Kind.STATIC, owner = NET, method = "blockOrUnblock6", desc = "(Z" + FD + "[BI[B)I", alsoIn = PKG)
    @Claimed(live = "BLOCK6_LIVE")
    public static int blockOrUnblock6(boolean block, FileDescriptor fd, byte[] group, int index, byte[] source)
            throws Throwable {
        return multicast6(BLOCK6_LIVE, block, fd, group, index, source, 4);
    }

    private static int multicast6(MethodHandle live, boolean on, FileDescriptor fd, byte[] group, int index, byte[] source,
            int which) throws Throwable {
        Ev ev = Ev.begin(MULTICAST, 0, 31 * (31 * which + (on ? 1 : 0)) + (group == null ? 0 : Digest.of(group, 0, group.length)));
        return ev.i(ev.live() ? (int) live.invokeExact(on, fd, group, index, source) : 0);
    }

    @CallSite(kind = CallSite.Kind.STATIC, owner = NET, method = "setInterface4", desc = "(" + FD + "I)V", alsoIn = PKG)
    @Claimed(live = "SET_INTERFACE4_LIVE")
    public static void setInterface4(FileDescriptor fd, int interf) throws Throwable {
        setInterface(SET_INTERFACE4_LIVE, fd, interf, 5);
    }

    @CallSite(kind = CallSite.Kind.STATIC, owner = NET, method = "setInterface6", desc = "(" + FD + "I)V", alsoIn = PKG)
    @Claimed(live = "SET_INTERFACE6_LIVE")
    public static void setInterface6(FileDescriptor fd, int index) throws Throwable {
        setInterface(SET_INTERFACE6_LIVE, fd, index, 6);
    }

    private static void setInterface(MethodHandle live, FileDescriptor fd, int interf, int which) throws Throwable {
        Ev ev = Ev.begin(MULTICAST, 0, 31 * which + interf);
        if (ev.live()) {
            live.invokeExact(fd, interf);
        }
    }

    @CallSite(kind = CallSite.Kind.STATIC, owner = NET, method = "getInterface4", desc = "(" + FD + ")I", alsoIn = PKG)
    @Claimed(live = "GET_INTERFACE4_LIVE")
    public static int getInterface4(FileDescriptor fd) throws Throwable {
        return number(MULTICAST, GET_INTERFACE4_LIVE, fd, 7);
    }

    @CallSite(kind = CallSite.Kind.STATIC, owner = NET, method = "getInterface6", desc = "(" + FD + ")I", alsoIn = PKG)
    @Claimed(live = "GET_INTERFACE6_LIVE")
    public static int getInterface6(FileDescriptor fd) throws Throwable {
        return number(MULTICAST, GET_INTERFACE6_LIVE, fd, 8);
    }
}
