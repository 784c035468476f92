package bench;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The load generator of {@link HttpServe}, a process of its own: {@code args[1]} GET requests to
 * the server at port {@code args[0]} on the loopback interface, spread over {@code args[2]}
 * keep-alive connections, each on a thread of its own sending its next request when the last
 * answer arrived. Prints the throughput and the latency percentiles.
 */
public final class HttpLoad {
    private HttpLoad() {
    }

    public static void main(String[] args) throws Exception {
        int port = Integer.parseInt(args[0]);
        int requests = Integer.parseInt(args[1]);
        int connections = Integer.parseInt(args[2]);
        long[] latencies = new long[requests];
        Thread[] threads = new Thread[connections];
        long start = System.nanoTime();
        for (int c = 0; c < connections; c++) {
            int first = c;
            threads[c] = new Thread(() -> {
                try (Socket s = new Socket(InetAddress.getLoopbackAddress(), port)) {
                    s.setTcpNoDelay(true);
                    OutputStream out = s.getOutputStream();
                    InputStream in = new BufferedInputStream(s.getInputStream());
                    for (int n = first; n < requests; n += connections) {
                        long sent = System.nanoTime();
                        out.write(("GET /square?n=" + n + " HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                                .getBytes(StandardCharsets.US_ASCII));
                        out.flush();
                        readResponse(in);
                        latencies[n] = System.nanoTime() - sent;
                    }
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            });
            threads[c].start();
        }
        for (Thread t : threads) {
            t.join();
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        Arrays.sort(latencies);
        System.out.printf("%d requests in %.2f s, %.0f requests/s, latency p50 %d us, p99 %d us%n", requests, seconds,
                requests / seconds, latencies[requests / 2] / 1000, latencies[requests * 99 / 100] / 1000);
    }

    /** Reads one response: its header, then the body its {@code Content-Length} gives. */
    private static void readResponse(InputStream in) throws IOException {
        StringBuilder header = new StringBuilder();
        int length = -1;
        while (true) {
            String line = readLine(in);
            if (line.isEmpty()) {
                break;
            }
            header.append(line).append('\n');
            if (line.regionMatches(true, 0, "Content-Length:", 0, 15)) {
                length = Integer.parseInt(line.substring(15).trim());
            }
        }
        if (!header.toString().startsWith("HTTP/1.1 200") || length < 0) {
            throw new IOException("unexpected response: " + header);
        }
        if (in.readNBytes(length).length != length) {
            throw new IOException("response body cut short");
        }
    }

    private static String readLine(InputStream in) throws IOException {
        StringBuilder line = new StringBuilder();
        for (int b = in.read(); b != '\n'; b = in.read()) {
            if (b < 0) {
                throw new IOException("connection closed mid-response");
            }
            if (b != '\r') {
                line.append((char) b);
            }
        }
        return line.toString();
    }
}
