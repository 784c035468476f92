package dev.reprise.agent.ops.net;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.net.InetAddress;

import dev.reprise.agent.ops.CallSite;
import dev.reprise.agent.ops.Claimed;
import dev.reprise.agent.runtime.events.Digest;
import dev.reprise.agent.runtime.events.Ev;
import dev.reprise.agent.runtime.events.Op;
import dev.reprise.agent.runtime.jdk.JdkMethods;

/**
 * Host-name lookups: the JDK's resolver asks the operating system through {@code InetAddressImpl}
 * ({@code lookupAllHostAddr}, with a lookup policy from JDK 18, {@code getHostByAddr}, and the host's own name,
 * {@code getLocalHostName}), called from {@code InetAddress}'s platform
 * resolver on JDK 17 and 25. A recording logs the addresses found, or the failure; a replay asks
 * nothing, and builds the same addresses, named by the host asked for, without a lookup. The
 * JDK's cache of lookups runs above this, on both sides, its expiry measured by the recorded clock.
 */
public final class NameLookups {
    private static final String IMPL = "java/net/InetAddressImpl";
    private static final String PKG = "java/net/";

    private static final Op LOOKUP = Op.named("net.lookup");
    private static final Op REVERSE = Op.named("net.lookup.reverse");
    private static final Op LOCAL_NAME = Op.named("net.localhost");
    private static final Op IPV6 = Op.named("net.ipv6");

    private static final Class<?> IMPL_CLASS = JdkMethods.jdkClass("java.net.InetAddressImpl");
    /** JDK 17: {@code lookupAllHostAddr(String)}; JDK 18 and later add a lookup policy. */
    private static final MethodHandle LOOKUP_LIVE = virtualIfPresent("lookupAllHostAddr",
            MethodType.methodType(InetAddress[].class, String.class));
    private static final MethodHandle LOOKUP_POLICY_LIVE = policyLookup();
    private static final MethodHandle REVERSE_LIVE = virtualIfPresent("getHostByAddr",
            MethodType.methodType(String.class, byte[].class));
    private static final MethodHandle LOCAL_NAME_LIVE = virtualIfPresent("getLocalHostName", MethodType.methodType(String.class));
    /** JDK 17 asks in {@code InetAddressImplFactory}, JDK 25 in {@code InetAddress}: one of the two is absent. */
    private static final MethodHandle IPV6_FACTORY_LIVE = JdkMethods.statikIfPresent("java.net.InetAddressImplFactory",
            "isIPv6Supported", MethodType.methodType(boolean.class));
    private static final MethodHandle IPV6_LIVE = JdkMethods.statikIfPresent("java.net.InetAddress", "isIPv6Supported",
            MethodType.methodType(boolean.class));

    private NameLookups() {
    }

    private static MethodHandle policyLookup() {
        try {
            Class<?> policy = Class.forName("java.net.spi.InetAddressResolver$LookupPolicy", false, null);
            return virtualIfPresent("lookupAllHostAddr", MethodType.methodType(InetAddress[].class, String.class, policy))
                    .asType(MethodType.methodType(InetAddress[].class, Object.class, String.class, Object.class));
        } catch (ClassNotFoundException | NullPointerException e) {
            return null;
        }
    }

    private static MethodHandle virtualIfPresent(String name, MethodType type) {
        try {
            return MethodHandles.privateLookupIn(IMPL_CLASS, MethodHandles.lookup()).findVirtual(IMPL_CLASS, name, type)
                    .asType(type.insertParameterTypes(0, Object.class));
        } catch (ReflectiveOperationException e) {
            return null;
        }
    }

    /**
     * Whether the machine has IPv6, which {@code InetAddress}'s initializer asks once to choose its
     * resolver: the recording machine's answer. A network namespace without a network has none, and
     * the other resolver finds its loopback address without asking the interfaces
     * ({@link NetworkInterfaces}), as the recording did.
     */
    @CallSite(kind = CallSite.Kind.STATIC, owner = "java/net/InetAddressImplFactory", method = "isIPv6Supported",
            desc = "()Z", alsoIn = PKG)
    @Claimed(live = "IPV6_FACTORY_LIVE")
    public static boolean ipv6FromFactory() throws Throwable {
        return SocketOps.probe(IPV6, IPV6_FACTORY_LIVE, 0);
    }

    @CallSite(kind = CallSite.Kind.STATIC, owner = "java/net/InetAddress", method = "isIPv6Supported", desc = "()Z",
            alsoIn = PKG)
    @Claimed(live = "IPV6_LIVE")
    public static boolean ipv6() throws Throwable {
        return SocketOps.probe(IPV6, IPV6_LIVE, 0);
    }

    /**
     * The machine's host name, under {@code InetAddress.getLocalHost}. That method itself runs in a
     * replay too: its lookup of the name and the cache entries it leaves are the JDK's own, which
     * later lookups of the same name find (recorded as one event, it left a replay's cache empty,
     * and commons-text's tests then looked the name up in a replay only).
     */
    @CallSite(kind = CallSite.Kind.VIRTUAL, owner = IMPL, method = "getLocalHostName", desc = "()Ljava/lang/String;",
            alsoIn = PKG)
    @Claimed(live = "LOCAL_NAME_LIVE")
    public static String localHostName(Object impl) throws Throwable {
        Ev ev = Ev.begin(LOCAL_NAME, 0, 0);
        return ev.s(ev.live() ? (String) LOCAL_NAME_LIVE.invokeExact(impl) : null);
    }

    @CallSite(kind = CallSite.Kind.VIRTUAL, owner = IMPL, method = "lookupAllHostAddr",
            desc = "(Ljava/lang/String;)[Ljava/net/InetAddress;", alsoIn = PKG)
    @Claimed(live = "LOOKUP_LIVE")
    public static InetAddress[] lookup(Object impl, String host) throws Throwable {
        Ev ev = Ev.begin(LOOKUP, 0, Digest.of(host));
        return addresses(ev, host, ev.live() ? (InetAddress[]) LOOKUP_LIVE.invokeExact(impl, host) : null);
    }

    @CallSite(kind = CallSite.Kind.VIRTUAL, owner = IMPL, method = "lookupAllHostAddr",
            desc = "(Ljava/lang/String;Ljava/net/spi/InetAddressResolver$LookupPolicy;)[Ljava/net/InetAddress;", alsoIn = PKG)
    @Claimed(live = "LOOKUP_POLICY_LIVE")
    public static InetAddress[] lookup(Object impl, String host, Object policy) throws Throwable {
        Ev ev = Ev.begin(LOOKUP, 0, Digest.of(host));
        return addresses(ev, host, ev.live() ? (InetAddress[]) LOOKUP_POLICY_LIVE.invokeExact(impl, host, policy) : null);
    }

    /** The addresses a lookup of {@code host} found, each as {@link SocketOps#address} logs one. */
    private static InetAddress[] addresses(Ev ev, String host, InetAddress[] live) throws java.net.UnknownHostException {
        int n = ev.i(live == null ? 0 : live.length);
        InetAddress[] found = live != null ? live : new InetAddress[n];
        for (int i = 0; i < n; i++) {
            found[i] = SocketOps.address(ev, host, live == null ? null : live[i]);
        }
        return found;
    }

    @CallSite(kind = CallSite.Kind.VIRTUAL, owner = IMPL, method = "getHostByAddr", desc = "([B)Ljava/lang/String;",
            alsoIn = PKG)
    @Claimed(live = "REVERSE_LIVE")
    public static String reverse(Object impl, byte[] address) throws Throwable {
        Ev ev = Ev.begin(REVERSE, 0, address == null ? 0 : Digest.of(address, 0, address.length));
        return ev.s(ev.live() ? (String) REVERSE_LIVE.invokeExact(impl, address) : null);
    }
}
