package corpus.net;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Arrays;

/**
 * Resolves host names: {@code localhost} forward, {@code 127.0.0.1} back to a name, and an
 * address literal, which needs no lookup; then the machine's own name, which
 * {@code getLocalHost} looked up and left in the JDK's cache; then whether the loopback address
 * answers a probe. Prints what it found.
 */
public final class Lookups {
    public static void main(String[] args) throws Exception {
        InetAddress[] all = InetAddress.getAllByName("localhost");
        System.out.println("localhost: " + Arrays.stream(all).anyMatch(InetAddress::isLoopbackAddress));
        InetAddress again = InetAddress.getByName("localhost");
        System.out.println("again, loopback: " + again.isLoopbackAddress());
        InetAddress literal = InetAddress.getByName("127.0.0.1");
        System.out.println("reverse of " + literal.getHostAddress() + ": " + literal.getCanonicalHostName());
        try {
            InetAddress local = InetAddress.getLocalHost();
            InetAddress[] byName = InetAddress.getAllByName(local.getHostName());
            System.out.println("local host among its name's addresses: " + Arrays.asList(byName).contains(local));
        } catch (UnknownHostException e) {
            System.out.println("local host unresolved");
        }
        System.out.println("loopback reachable: " + literal.isReachable(2000));
    }
}
