package dev.reprise.agent.ops.net;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodType;
import java.lang.invoke.VarHandle;
import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InterfaceAddress;
import java.net.NetworkInterface;

import dev.reprise.agent.ops.CallSite;
import dev.reprise.agent.ops.Claimed;
import dev.reprise.agent.runtime.events.Digest;
import dev.reprise.agent.runtime.events.Ev;
import dev.reprise.agent.runtime.events.Op;
import dev.reprise.agent.runtime.jdk.JdkMethods;

/**
 * The machine's network interfaces, as {@code NetworkInterface} finds them: by name, index or
 * address, all at once, and each one's state (up, loopback, multicast, MTU, hardware address).
 * They are the machine's configuration, which a replay elsewhere (in a network namespace of its
 * own, where {@code lo} is down and has no address) does not share, and a multicast socket is
 * joined and sent from an interface the program looked up. Every lookup reaches the kernel
 * through the natives of {@code NetworkInterface}, the same on JDK 17 and 25: a recording logs
 * the interfaces they built, a replay builds the same ones without asking.
 */
public final class NetworkInterfaces {
    private static final String OWNER = "java/net/NetworkInterface";
    private static final String PKG = "java/net/";
    private static final String IFACE = "Ljava/net/NetworkInterface;";
    private static final String STRING = "Ljava/lang/String;";

    private static final Op FIND = Op.named("net.interface");
    private static final Op STATE = Op.named("net.interface.state");

    private static final MethodHandle ALL_LIVE = net("getAll", NetworkInterface[].class);
    private static final MethodHandle BY_NAME_LIVE = net("getByName0", NetworkInterface.class, String.class);
    private static final MethodHandle BY_INDEX_LIVE = net("getByIndex0", NetworkInterface.class, int.class);
    private static final MethodHandle BY_ADDRESS_LIVE = net("getByInetAddress0", NetworkInterface.class, InetAddress.class);
    private static final MethodHandle BOUND_LIVE = net("boundInetAddress0", boolean.class, InetAddress.class);
    private static final MethodHandle UP_LIVE = net("isUp0", boolean.class, String.class, int.class);
    private static final MethodHandle LOOPBACK_LIVE = net("isLoopback0", boolean.class, String.class, int.class);
    private static final MethodHandle MULTICAST_LIVE = net("supportsMulticast0", boolean.class, String.class, int.class);
    private static final MethodHandle POINT_TO_POINT_LIVE = net("isP2P0", boolean.class, String.class, int.class);
    private static final MethodHandle MAC_LIVE = net("getMacAddr0", byte[].class, byte[].class, String.class, int.class);
    private static final MethodHandle MTU_LIVE = net("getMTU0", int.class, String.class, int.class);

    private static final MethodHandle NEW_IFACE = constructor(NetworkInterface.class, String.class, int.class,
            InetAddress[].class);
    private static final MethodHandle NEW_BINDING = constructor(InterfaceAddress.class);
    private static final VarHandle NAME = field("name", String.class);
    private static final VarHandle DISPLAY_NAME = field("displayName", String.class);
    private static final VarHandle INDEX = field("index", int.class);
    private static final VarHandle ADDRESSES = field("addrs", InetAddress[].class);
    private static final VarHandle BINDINGS = field("bindings", InterfaceAddress[].class);
    private static final VarHandle CHILDREN = field("childs", NetworkInterface[].class);
    private static final VarHandle PARENT = field("parent", NetworkInterface.class);
    private static final VarHandle VIRTUAL = field("virtual", boolean.class);
    private static final VarHandle BINDING_ADDRESS = JdkMethods.field(InterfaceAddress.class, "address", InetAddress.class);
    private static final VarHandle BROADCAST = JdkMethods.field(InterfaceAddress.class, "broadcast", Inet4Address.class);
    private static final VarHandle PREFIX = JdkMethods.field(InterfaceAddress.class, "maskLength", short.class);

    private NetworkInterfaces() {
    }

    private static MethodHandle net(String name, Class<?> returns, Class<?>... params) {
        return JdkMethods.statik(NetworkInterface.class, name, MethodType.methodType(returns, params));
    }

    private static VarHandle field(String name, Class<?> type) {
        return JdkMethods.field(NetworkInterface.class, name, type);
    }

    private static MethodHandle constructor(Class<?> owner, Class<?>... params) {
        try {
            return java.lang.invoke.MethodHandles.privateLookupIn(owner, java.lang.invoke.MethodHandles.lookup())
                    .findConstructor(owner, MethodType.methodType(void.class, params));
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot reach the constructor of " + owner.getName(), e);
        }
    }

    /**
     * Before a call that builds interfaces is claimed: {@code InetAddress} initialized. The interfaces
     * hold addresses: an initializer run inside the event would run live, and with it its probe of
     * the machine ({@link NameLookups#ipv6}), which a replay, building them itself, makes elsewhere.
     */
    private static void initializeAddresses() throws ClassNotFoundException {
        Class.forName("java.net.InetAddress", true, null);
    }

    @CallSite(kind = CallSite.Kind.STATIC, owner = OWNER, method = "getAll", desc = "()[" + IFACE, alsoIn = PKG)
    public static NetworkInterface[] all() throws Throwable {
        initializeAddresses();
        return allEvent();
    }

    @Claimed(live = "ALL_LIVE")
    private static NetworkInterface[] allEvent() throws Throwable {
        Ev ev = Ev.begin(FIND, 0, 0);
        NetworkInterface[] live = ev.live() ? (NetworkInterface[]) ALL_LIVE.invokeExact() : null;
        return interfaces(ev, live, null);
    }

    @CallSite(kind = CallSite.Kind.STATIC, owner = OWNER, method = "getByName0", desc = "(" + STRING + ")" + IFACE,
            alsoIn = PKG)
    public static NetworkInterface byName(String name) throws Throwable {
        initializeAddresses();
        return byNameEvent(name);
    }

    @Claimed(live = "BY_NAME_LIVE")
    private static NetworkInterface byNameEvent(String name) throws Throwable {
        Ev ev = Ev.begin(FIND, 0, 31 + Digest.of(name));
        return found(ev, ev.live() ? (NetworkInterface) BY_NAME_LIVE.invokeExact(name) : null);
    }

    @CallSite(kind = CallSite.Kind.STATIC, owner = OWNER, method = "getByIndex0", desc = "(I)" + IFACE, alsoIn = PKG)
    public static NetworkInterface byIndex(int index) throws Throwable {
        initializeAddresses();
        return byIndexEvent(index);
    }

    @Claimed(live = "BY_INDEX_LIVE")
    private static NetworkInterface byIndexEvent(int index) throws Throwable {
        Ev ev = Ev.begin(FIND, 0, 31 * 2 + index);
        return found(ev, ev.live() ? (NetworkInterface) BY_INDEX_LIVE.invokeExact(index) : null);
    }

    @CallSite(kind = CallSite.Kind.STATIC, owner = OWNER, method = "getByInetAddress0",
            desc = "(Ljava/net/InetAddress;)" + IFACE, alsoIn = PKG)
    @Claimed(live = "BY_ADDRESS_LIVE")
    public static NetworkInterface byAddress(InetAddress address) throws Throwable {
        Ev ev = Ev.begin(FIND, 0, 31 * 3 + digest(address));
        return found(ev, ev.live() ? (NetworkInterface) BY_ADDRESS_LIVE.invokeExact(address) : null);
    }

    @CallSite(kind = CallSite.Kind.STATIC, owner = OWNER, method = "boundInetAddress0", desc = "(Ljava/net/InetAddress;)Z",
            alsoIn = PKG)
    @Claimed(live = "BOUND_LIVE")
    public static boolean bound(InetAddress address) throws Throwable {
        Ev ev = Ev.begin(FIND, 0, 31 * 4 + digest(address));
        return ev.z(ev.live() && (boolean) BOUND_LIVE.invokeExact(address));
    }

    @CallSite(kind = CallSite.Kind.STATIC, owner = OWNER, method = "isUp0", desc = "(" + STRING + "I)Z", alsoIn = PKG)
    @Claimed(live = "UP_LIVE")
    public static boolean up(String name, int index) throws Throwable {
        return flag(UP_LIVE, name, index, 1);
    }

    @CallSite(kind = CallSite.Kind.STATIC, owner = OWNER, method = "isLoopback0", desc = "(" + STRING + "I)Z", alsoIn = PKG)
    @Claimed(live = "LOOPBACK_LIVE")
    public static boolean loopback(String name, int index) throws Throwable {
        return flag(LOOPBACK_LIVE, name, index, 2);
    }

    @CallSite(kind = CallSite.Kind.STATIC, owner = OWNER, method = "supportsMulticast0", desc = "(" + STRING + "I)Z",
            alsoIn = PKG)
    @Claimed(live = "MULTICAST_LIVE")
    public static boolean multicast(String name, int index) throws Throwable {
        return flag(MULTICAST_LIVE, name, index, 3);
    }

    @CallSite(kind = CallSite.Kind.STATIC, owner = OWNER, method = "isP2P0", desc = "(" + STRING + "I)Z", alsoIn = PKG)
    @Claimed(live = "POINT_TO_POINT_LIVE")
    public static boolean pointToPoint(String name, int index) throws Throwable {
        return flag(POINT_TO_POINT_LIVE, name, index, 4);
    }

    private static boolean flag(MethodHandle live, String name, int index, int which) throws Throwable {
        Ev ev = Ev.begin(STATE, 0, state(name, index, which));
        return ev.z(ev.live() && (boolean) live.invokeExact(name, index));
    }

    @CallSite(kind = CallSite.Kind.STATIC, owner = OWNER, method = "getMTU0", desc = "(" + STRING + "I)I", alsoIn = PKG)
    @Claimed(live = "MTU_LIVE")
    public static int mtu(String name, int index) throws Throwable {
        Ev ev = Ev.begin(STATE, 0, state(name, index, 5));
        return ev.i(ev.live() ? (int) MTU_LIVE.invokeExact(name, index) : 0);
    }

    @CallSite(kind = CallSite.Kind.STATIC, owner = OWNER, method = "getMacAddr0", desc = "([B" + STRING + "I)[B",
            alsoIn = PKG)
    @Claimed(live = "MAC_LIVE")
    public static byte[] hardwareAddress(byte[] address, String name, int index) throws Throwable {
        Ev ev = Ev.begin(STATE, 0, state(name, index, 6));
        byte[] live = ev.live() ? (byte[]) MAC_LIVE.invokeExact(address, name, index) : null;
        return ev.z(live != null) ? ev.blob(live) : null;
    }

    private static int state(String name, int index, int which) {
        return 31 * (31 * which + (name == null ? 0 : Digest.of(name))) + index;
    }

    private static int digest(InetAddress address) {
        byte[] b = address == null ? new byte[0] : address.getAddress();
        return Digest.of(b, 0, b.length);
    }

    /** An interface found, or none: whether there was one, then the interface. */
    private static NetworkInterface found(Ev ev, NetworkInterface live) throws Throwable {
        return ev.z(live != null) ? iface(ev, live, null) : null;
    }

    /** Interfaces, or a replay's. A recording's are never null ({@code getAll} and every interface's children). */
    private static NetworkInterface[] interfaces(Ev ev, NetworkInterface[] live, NetworkInterface parent) throws Throwable {
        int n = ev.i(ev.live() ? live.length : 0);
        NetworkInterface[] all = ev.live() ? live : new NetworkInterface[n];
        for (int i = 0; i < n; i++) {
            all[i] = iface(ev, ev.live() ? live[i] : null, parent);
        }
        return all;
    }

    /**
     * One interface as its fields: name, display name, index, addresses, their prefixes and
     * broadcast addresses, whether it is virtual, and its subinterfaces, which a replay builds
     * with this one as their parent. A recording returns {@code live}, a replay the interface built.
     */
    private static NetworkInterface iface(Ev ev, NetworkInterface live, NetworkInterface parent) throws Throwable {
        String name = ev.s(live == null ? null : (String) NAME.get(live));
        String displayName = ev.s(live == null ? null : (String) DISPLAY_NAME.get(live));
        int index = ev.i(live == null ? 0 : (int) INDEX.get(live));
        InetAddress[] liveAddresses = live == null ? null : (InetAddress[]) ADDRESSES.get(live);
        int n = ev.i(liveAddresses == null ? 0 : liveAddresses.length);
        InetAddress[] addresses = new InetAddress[n];
        for (int i = 0; i < n; i++) {
            addresses[i] = SocketOps.address(ev, null, liveAddresses == null ? null : liveAddresses[i]);
        }
        InterfaceAddress[] liveBindings = live == null ? null : (InterfaceAddress[]) BINDINGS.get(live);
        int b = ev.i(liveBindings == null ? 0 : liveBindings.length);
        InterfaceAddress[] bindings = new InterfaceAddress[b];
        for (int i = 0; i < b; i++) {
            InterfaceAddress binding = liveBindings == null ? (InterfaceAddress) NEW_BINDING.invoke() : liveBindings[i];
            InetAddress address = among(addresses, SocketOps.address(ev, null, (InetAddress) BINDING_ADDRESS.get(binding)));
            InetAddress broadcast = SocketOps.address(ev, null, (InetAddress) BROADCAST.get(binding));
            short prefix = (short) ev.i((short) PREFIX.get(binding));
            if (live == null) {
                BINDING_ADDRESS.set(binding, address);
                BROADCAST.set(binding, (Inet4Address) broadcast);
                PREFIX.set(binding, prefix);
            }
            bindings[i] = binding;
        }
        boolean virtual = ev.z(live != null && (boolean) VIRTUAL.get(live));
        NetworkInterface built = live != null ? live : (NetworkInterface) NEW_IFACE.invoke(name, index, addresses);
        if (live == null) {
            DISPLAY_NAME.set(built, displayName);
            BINDINGS.set(built, bindings);
            VIRTUAL.set(built, virtual);
            PARENT.set(built, parent);
            scopeByInterface(built, addresses, bindings);
        }
        NetworkInterface[] children = interfaces(ev, live == null ? null : (NetworkInterface[]) CHILDREN.get(live), built);
        if (live == null) {
            CHILDREN.set(built, children);
        }
        return built;
    }

    /** The interface's own address equal to {@code address}, as the kernel's binding holds it, else {@code address}. */
    private static InetAddress among(InetAddress[] addresses, InetAddress address) {
        for (InetAddress a : addresses) {
            if (a.equals(address)) {
                return a;
            }
        }
        return address;
    }

    /**
     * Replay: the kernel names a scoped IPv6 address's scope by its interface, which its text
     * shows ({@code fe80::1%eth0}); the recording logged the scope's number, which now names the
     * interface just built.
     */
    private static void scopeByInterface(NetworkInterface built, InetAddress[] addresses, InterfaceAddress[] bindings)
            throws java.net.UnknownHostException {
        for (int i = 0; i < addresses.length; i++) {
            if (addresses[i] instanceof Inet6Address six && six.getScopeId() != 0) {
                InetAddress named = Inet6Address.getByAddress(null, six.getAddress(), built);
                for (InterfaceAddress binding : bindings) {
                    if (BINDING_ADDRESS.get(binding) == six) {
                        BINDING_ADDRESS.set(binding, named);
                    }
                }
                addresses[i] = named;
            }
        }
    }
}
