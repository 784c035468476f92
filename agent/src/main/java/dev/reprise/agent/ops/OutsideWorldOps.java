package dev.reprise.agent.ops;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodType;
import java.util.Arrays;
import java.util.Map;

import dev.reprise.agent.runtime.JdkMethods;
import dev.reprise.agent.runtime.OutsideWorld;
import dev.reprise.agent.runtime.Rt;

/**
 * The guard on what Reprise does not record yet ({@link OutsideWorld}): every socket and every
 * child process, each at the one JDK method all its APIs reach. On JDK 17 and 25 an internet
 * socket, stream or datagram, client or server, is created by {@code sun.nio.ch.Net.socket0}:
 * NIO's channels, and {@code java.net}'s {@code Socket}, {@code ServerSocket} and
 * {@code DatagramSocket}, which are built on them. A Unix domain socket is created by
 * {@code sun.nio.ch.UnixDomainSockets.socket0}. Every process, by {@code ProcessBuilder} or
 * {@code Runtime.exec}, is started by {@code java.lang.ProcessImpl.start}. Nothing is logged.
 */
public final class OutsideWorldOps {
    private static final MethodHandle SOCKET_LIVE = JdkMethods.statik(JdkMethods.jdkClass("sun.nio.ch.Net"), "socket0",
            MethodType.methodType(int.class, boolean.class, boolean.class, boolean.class, boolean.class));
    private static final MethodHandle UNIX_SOCKET_LIVE = JdkMethods.statik(JdkMethods.jdkClass("sun.nio.ch.UnixDomainSockets"),
            "socket0", MethodType.methodType(int.class));
    private static final MethodHandle PROCESS_LIVE = JdkMethods.statik(JdkMethods.jdkClass("java.lang.ProcessImpl"), "start",
            MethodType.methodType(Process.class, String[].class, Map.class, String.class, ProcessBuilder.Redirect[].class,
                    boolean.class));

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

    @Prologue(owner = "java/lang/ProcessImpl", method = "start",
            desc = "([Ljava/lang/String;Ljava/util/Map;Ljava/lang/String;[Ljava/lang/ProcessBuilder$Redirect;Z)Ljava/lang/Process;")
    public static Process startProcess(String[] command, Map<String, String> environment, String dir,
            ProcessBuilder.Redirect[] redirects, boolean redirectErrorStream) throws Throwable {
        try {
            OutsideWorld.attempt(OutsideWorld.Kind.PROCESS, String.join(" ", Arrays.asList(command)));
            return (Process) PROCESS_LIVE.invokeExact(command, environment, dir, redirects, redirectErrorStream);
        } finally {
            Rt.release();
        }
    }
}
