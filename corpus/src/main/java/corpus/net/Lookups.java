package corpus.net;

import java.net.InetAddress;
import java.util.Arrays;

/**
 * Resolves host names: {@code localhost} forward, {@code 127.0.0.1} back to a name, and an
 * address literal, which needs no lookup. Prints what it found.
 */
public final class Lookups {
    public static void main(String[] args) throws Exception {
        InetAddress[] all = InetAddress.getAllByName("localhost");
        System.out.println("localhost: " + Arrays.stream(all).anyMatch(InetAddress::isLoopbackAddress));
        InetAddress again = InetAddress.getByName("localhost");
        System.out.println("again, loopback: " + again.isLoopbackAddress());
        InetAddress literal = InetAddress.getByName("127.0.0.1");
        System.out.println("reverse of " + literal.getHostAddress() + ": " + literal.getCanonicalHostName());
    }
}
