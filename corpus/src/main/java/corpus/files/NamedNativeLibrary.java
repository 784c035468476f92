package corpus.files;

import io.netty.channel.epoll.Epoll;
import java.io.File;

/**
 * Netty's native epoll transport, which extracts its library from its jar to a temp file and
 * loads it, and does its network I/O in native code: a recording does not load it, and Netty
 * falls back to the JDK's sockets. Then a load that fails: a file that is not there.
 */
public final class NamedNativeLibrary {
    public static void main(String[] args) {
        System.out.println("epoll available: " + Epoll.isAvailable());
        if (!Epoll.isAvailable()) {
            System.out.println("because: " + Epoll.unavailabilityCause());
        }
        File missing = new File(System.getProperty("java.io.tmpdir"), "reprise-no-such-dir/libmissing.so");
        try {
            System.load(missing.getAbsolutePath());
            System.out.println("loaded a missing library");
        } catch (UnsatisfiedLinkError e) {
            System.out.println("refused a missing library: " + e.getMessage().replace(missing.getAbsolutePath(), "<file>"));
        }
    }
}
