package dev.reprise.agent.ops.net;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodType;

import dev.reprise.agent.ops.CallSite;
import dev.reprise.agent.ops.Claimed;
import dev.reprise.agent.runtime.events.Digest;
import dev.reprise.agent.runtime.events.Ev;
import dev.reprise.agent.runtime.events.Op;
import dev.reprise.agent.runtime.jdk.JdkMethods;

/**
 * {@code InetAddress.isReachable}: the JDK's resolver sends an ICMP echo, or connects to the echo
 * port, in one native call of {@code Inet4AddressImpl} or {@code Inet6AddressImpl}. A recording
 * logs the answer, or the failure; a replay sends nothing and gives the recorded answer.
 */
public final class Reachability {
    private static final String PKG = "java/net/";
    private static final Op REACHABLE = Op.named("net.reachable");

    private static final MethodHandle FOUR_LIVE = live("java.net.Inet4AddressImpl",
            MethodType.methodType(boolean.class, byte[].class, int.class, byte[].class, int.class));
    private static final MethodHandle SIX_LIVE = live("java.net.Inet6AddressImpl",
            MethodType.methodType(boolean.class, byte[].class, int.class, int.class, byte[].class, int.class, int.class));

    private Reachability() {
    }

    private static MethodHandle live(String owner, MethodType type) {
        MethodHandle h = JdkMethods.virtual(JdkMethods.jdkClass(owner), "isReachable0", type);
        return h.asType(h.type().changeParameterType(0, Object.class));
    }

    @CallSite(kind = CallSite.Kind.VIRTUAL, owner = "java/net/Inet4AddressImpl", method = "isReachable0",
            desc = "([BI[BI)Z", alsoIn = PKG)
    @Claimed(live = "FOUR_LIVE")
    public static boolean four(Object impl, byte[] address, int timeout, byte[] from, int ttl) throws Throwable {
        Ev ev = Ev.begin(REACHABLE, 0, Digest.of(address, 0, address.length));
        return ev.z(ev.live() && (boolean) FOUR_LIVE.invokeExact(impl, address, timeout, from, ttl));
    }

    @CallSite(kind = CallSite.Kind.VIRTUAL, owner = "java/net/Inet6AddressImpl", method = "isReachable0",
            desc = "([BII[BII)Z", alsoIn = PKG)
    @Claimed(live = "SIX_LIVE")
    public static boolean six(Object impl, byte[] address, int scope, int timeout, byte[] from, int ttl, int fromScope)
            throws Throwable {
        Ev ev = Ev.begin(REACHABLE, 0, Digest.of(address, 0, address.length));
        return ev.z(ev.live() && (boolean) SIX_LIVE.invokeExact(impl, address, scope, timeout, from, ttl, fromScope));
    }
}
