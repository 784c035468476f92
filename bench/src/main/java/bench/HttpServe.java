package bench;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

/**
 * http: the JDK's {@code HttpServer} on a pool of four threads, on the loopback interface, under a
 * load generator in another process ({@link HttpLoad}): {@code args[0]} requests on
 * {@code args[1]} keep-alive connections. Prints what it served, the same whatever the
 * interleaving; the load generator's throughput and latency go to stderr. A replay serves the
 * recorded requests with no client, and the load generator's report comes from the recording.
 */
public final class HttpServe {
    private HttpServe() {
    }

    public static void main(String[] args) throws Exception {
        Timed.begin();
        int requests = Integer.parseInt(args[0]);
        int connections = Integer.parseInt(args[1]);
        // Answers go out at once, not held back for the acknowledgement of the header (Nagle).
        System.setProperty("sun.net.httpserver.nodelay", "true");
        AtomicLong served = new AtomicLong();
        AtomicLong sum = new AtomicLong();
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 100);
        ExecutorService pool = Executors.newFixedThreadPool(4);
        server.setExecutor(pool);
        server.createContext("/square", exchange -> answer(exchange, served, sum));
        server.start();
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process load = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"), HttpLoad.class.getName(),
                Integer.toString(server.getAddress().getPort()), args[0], args[1])
                .redirectErrorStream(true).start();
        String report;
        try (InputStream in = load.getInputStream()) {
            report = new String(in.readAllBytes(), StandardCharsets.UTF_8).trim();
        }
        int status = load.waitFor();
        server.stop(0);
        pool.shutdown();
        System.err.println("bench: load " + report);
        System.out.println("load generator status " + status + ", served " + served.get() + " of " + requests
                + " requests on " + connections + " connections, squares sum " + sum.get());
        Timed.end();
    }

    private static void answer(HttpExchange exchange, AtomicLong served, AtomicLong sum) throws IOException {
        String query = exchange.getRequestURI().getQuery();
        long n = Long.parseLong(query.substring(query.indexOf('=') + 1));
        exchange.getRequestBody().readAllBytes();
        byte[] reply = Long.toString(n * n).getBytes(StandardCharsets.UTF_8);
        exchange.sendResponseHeaders(200, reply.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(reply);
        }
        sum.addAndGet(n * n);
        served.incrementAndGet();
    }
}
