package corpus.threads;

import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.Driver;
import java.sql.DriverManager;
import java.sql.DriverPropertyInfo;
import java.sql.SQLException;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.logging.Logger;

import corpus.Expect;

/**
 * Two threads open the first JDBC connections at once, as a pool's first connections are opened.
 * The first of them to reach {@code DriverManager}'s lock for loading the drivers scans the class
 * path for them (a service file in a jar, read through the JDK's cache of jars), and the other
 * waits for it there: which thread scans is the race, and a replay whose other thread scanned
 * diverged at the scan's file operations (sqlite-jdbc's in-memory databases on two threads).
 * Expected: a replay's scan is on the recording's thread.
 */
@Expect(orders = {"rto", "to"})
public final class FirstConnections {
    private FirstConnections() {
    }

    /** A driver of {@code jdbc:echo:} URLs, found by the scan through this jar's service file. */
    public static final class EchoDriver implements Driver {
        static {
            try {
                DriverManager.registerDriver(new EchoDriver()); // as every JDBC 4 driver does when the scan loads it
            } catch (SQLException e) {
                throw new ExceptionInInitializerError(e);
            }
        }

        @Override
        public Connection connect(String url, Properties info) {
            if (!acceptsURL(url)) {
                return null;
            }
            return (Connection) Proxy.newProxyInstance(FirstConnections.class.getClassLoader(), new Class<?>[] {Connection.class},
                    (proxy, method, args) -> switch (method.getName()) {
                        case "getCatalog" -> url.substring("jdbc:echo:".length());
                        case "close" -> null;
                        case "isClosed" -> false;
                        default -> throw new UnsupportedOperationException(method.getName());
                    });
        }

        @Override
        public boolean acceptsURL(String url) {
            return url.startsWith("jdbc:echo:");
        }

        @Override
        public DriverPropertyInfo[] getPropertyInfo(String url, Properties info) {
            return new DriverPropertyInfo[0];
        }

        @Override
        public int getMajorVersion() {
            return 1;
        }

        @Override
        public int getMinorVersion() {
            return 0;
        }

        @Override
        public boolean jdbcCompliant() {
            return false;
        }

        @Override
        public Logger getParentLogger() {
            return Logger.getLogger("corpus.echo");
        }
    }

    public static void main(String[] args) throws Exception {
        CountDownLatch go = new CountDownLatch(1);
        AtomicReferenceArray<String> catalogs = new AtomicReferenceArray<>(2);
        Thread[] threads = new Thread[2];
        for (int t = 0; t < threads.length; t++) {
            int me = t;
            threads[t] = new Thread(() -> {
                try {
                    go.await();
                    try (Connection c = DriverManager.getConnection("jdbc:echo:db" + me)) {
                        catalogs.set(me, c.getCatalog());
                    }
                } catch (InterruptedException | SQLException e) {
                    throw new IllegalStateException(e);
                }
            }, "connect-" + t);
            threads[t].start();
        }
        go.countDown();
        for (Thread t : threads) {
            t.join();
        }
        System.out.println("connected to " + catalogs.get(0) + " and " + catalogs.get(1));
    }
}
