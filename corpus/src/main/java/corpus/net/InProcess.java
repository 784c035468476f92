package corpus.net;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.HttpURLConnection;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;

import com.sun.net.httpserver.HttpServer;

/**
 * A web service and its clients in one program, on the loopback interface: the JDK's
 * {@code HttpServer} on a pool of four threads, fetched {@code args[1]} times at once, by
 * {@code HttpURLConnection} on as many threads ({@code args[0]} {@code urlconnection}) or by
 * {@code HttpClient}, once synchronously then asynchronously ({@code httpclient}). Prints the answers.
 */
public final class InProcess {
    public static void main(String[] args) throws Exception {
        int concurrent = Integer.parseInt(args[1]);
        AtomicLong sum = new AtomicLong();
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 50);
        ExecutorService pool = Executors.newFixedThreadPool(4);
        server.setExecutor(pool);
        server.createContext("/square", exchange -> Squares.answer(exchange, sum));
        server.start();
        String base = "http://127.0.0.1:" + server.getAddress().getPort() + "/square?n=";
        if (args[0].equals("httpclient")) {
            httpClient(base, concurrent);
        } else {
            urlConnections(base, concurrent);
        }
        server.stop(0);
        pool.shutdown();
        System.out.println("served, squares sum " + sum.get());
    }

    private static void httpClient(String base, int concurrent) throws Exception {
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        HttpResponse<String> one = client.send(HttpRequest.newBuilder(URI.create(base + 7)).build(),
                HttpResponse.BodyHandlers.ofString());
        System.out.println("sync: " + one.statusCode() + " " + one.body());
        List<CompletableFuture<String>> many = new ArrayList<>();
        for (int i = 0; i < concurrent; i++) {
            HttpRequest r = HttpRequest.newBuilder(URI.create(base + i))
                    .POST(HttpRequest.BodyPublishers.ofString("payload " + i)).build();
            many.add(client.sendAsync(r, HttpResponse.BodyHandlers.ofString()).thenApply(HttpResponse::body));
        }
        long sum = 0;
        for (CompletableFuture<String> f : many) {
            sum += Long.parseLong(f.get().split(" ")[0]);
        }
        System.out.println("async: " + concurrent + " answers, squares sum " + sum);
    }

    /** {@code concurrent} threads, each fetching with {@code HttpURLConnection}, posting a body every other time. */
    private static void urlConnections(String base, int concurrent) throws Exception {
        long[] squares = new long[concurrent];
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < concurrent; i++) {
            int n = i;
            Thread t = new Thread(() -> squares[n] = fetch(base, n));
            threads.add(t);
            t.start();
        }
        long sum = 0;
        for (int i = 0; i < concurrent; i++) {
            threads.get(i).join();
            sum += squares[i];
        }
        System.out.println("url connections: " + concurrent + " answers, squares sum " + sum);
    }

    private static long fetch(String base, int n) {
        try {
            HttpURLConnection c = (HttpURLConnection) URI.create(base + n).toURL().openConnection();
            if (n % 2 == 1) {
                c.setDoOutput(true);
                try (OutputStream out = c.getOutputStream()) {
                    out.write(("payload " + n).getBytes(StandardCharsets.UTF_8));
                }
            }
            try (InputStream in = c.getInputStream()) {
                String answer = new String(in.readAllBytes(), StandardCharsets.UTF_8);
                return c.getResponseCode() == 200 ? Long.parseLong(answer.split(" ")[0]) : -1;
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
