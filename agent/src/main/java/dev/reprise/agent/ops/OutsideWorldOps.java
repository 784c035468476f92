package dev.reprise.agent.ops;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodType;

import dev.reprise.agent.runtime.JdkMethods;
import dev.reprise.agent.runtime.OutsideWorld;

/**
 * The guard on what Reprise does not record yet ({@link OutsideWorld}): every socket, at the one
 * JDK method all its APIs reach. On JDK 17 and 25 an internet socket, stream or datagram, client
 * or server, is created by {@code sun.nio.ch.Net.socket0}: NIO's channels, and {@code java.net}'s
 * {@code Socket}, {@code ServerSocket} and {@code DatagramSocket}, which are built on them. A Unix
 * domain socket is created by {@code sun.nio.ch.UnixDomainSockets.socket0}. Nothing is logged.
 */
public final class OutsideWorldOps {
    private static final MethodHandle SOCKET_LIVE = JdkMethods.statik(JdkMethods.jdkClass("sun.nio.ch.Net"), "socket0",
            MethodType.methodType(int.class, boolean.class, boolean.class, boolean.class, boolean.class));
    private static final MethodHandle UNIX_SOCKET_LIVE = JdkMethods.statik(JdkMethods.jdkClass("sun.nio.ch.UnixDomainSockets"),
            "socket0", MethodType.methodType(int.class));

    private OutsideWorldOps() {
    }

    @CallSite(kind = CallSite.Kind.STATIC, owner = "sun/nio/ch/Net", method = "socket0", desc = "(ZZZZ)I",
            alsoIn = "sun/nio/ch/Net")
    public static int socket(boolean preferIPv6, boolean stream, boolean reuse, boolean fastLoopback) throws Throwable {
        OutsideWorld.attempt(OutsideWorld.Kind.SOCKET, "");
        return (int) SOCKET_LIVE.invokeExact(preferIPv6, stream, reuse, fastLoopback);
    }

    @CallSite(kind = CallSite.Kind.STATIC, owner = "sun/nio/ch/UnixDomainSockets", method = "socket0", desc = "()I",
            alsoIn = "sun/nio/ch/UnixDomainSockets")
    public static int unixSocket() throws Throwable {
        OutsideWorld.attempt(OutsideWorld.Kind.SOCKET, "");
        return (int) UNIX_SOCKET_LIVE.invokeExact();
    }
}
