package corpus.net;

import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;

import javax.net.ssl.HttpsURLConnection;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;

/**
 * HTTPS in one program, on the loopback interface: the JDK's {@code HttpsServer} on a pool of
 * four threads, with the self-signed certificate in the PKCS#12 key store {@code args[0]}
 * (password {@code args[1]}), which its clients trust alone: {@code HttpClient}, once
 * synchronously then {@code args[2]} times asynchronously, one request after another, and
 * {@code HttpsURLConnection}.
 * Every handshake draws random numbers and reads clocks; prints the answers and the protocol.
 */
public final class Tls {
    public static void main(String[] args) throws Exception {
        char[] password = args[1].toCharArray();
        int requests = Integer.parseInt(args[2]);
        KeyStore keys = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(Path.of(args[0]))) {
            keys.load(in, password);
        }
        KeyManagerFactory km = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        km.init(keys, password);
        TrustManagerFactory tm = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tm.init(keys);
        SSLContext tls = SSLContext.getInstance("TLS");
        tls.init(km.getKeyManagers(), tm.getTrustManagers(), null);

        AtomicLong sum = new AtomicLong();
        HttpsServer server = HttpsServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 50);
        server.setHttpsConfigurator(new HttpsConfigurator(tls));
        ExecutorService pool = Executors.newFixedThreadPool(4);
        server.setExecutor(pool);
        server.createContext("/square", exchange -> Squares.answer(exchange, sum));
        server.start();
        String base = "https://127.0.0.1:" + server.getAddress().getPort() + "/square?n=";

        HttpClient client = HttpClient.newBuilder().sslContext(tls).version(HttpClient.Version.HTTP_1_1).build();
        HttpResponse<String> one = client.send(HttpRequest.newBuilder(URI.create(base + 7)).build(),
                HttpResponse.BodyHandlers.ofString());
        System.out.println("sync: " + one.statusCode() + " " + one.body() + " over " + one.sslSession().orElseThrow().getProtocol());
        // One request after another, each sent when the last completes, on the kept-alive
        // connection: concurrent handshakes race for the client's session cache (the JDK's
        // sun.security.util.Cache), whose order Reprise does not record yet.
        CompletableFuture<Long> chain = CompletableFuture.completedFuture(0L);
        for (int i = 0; i < requests; i++) {
            HttpRequest r = HttpRequest.newBuilder(URI.create(base + i))
                    .POST(HttpRequest.BodyPublishers.ofString("payload " + i)).build();
            chain = chain.thenCompose(total -> client.sendAsync(r, HttpResponse.BodyHandlers.ofString())
                    .thenApply(answer -> total + Long.parseLong(answer.body().split(" ")[0])));
        }
        System.out.println("async: " + requests + " answers, squares sum " + chain.get());

        HttpsURLConnection c = (HttpsURLConnection) new URL(base + 12).openConnection();
        c.setSSLSocketFactory(tls.getSocketFactory());
        try (InputStream in = c.getInputStream()) {
            System.out.println("urlconnection: " + c.getResponseCode() + " " + new String(in.readAllBytes(), StandardCharsets.UTF_8)
                    + " with " + c.getCipherSuite().startsWith("TLS_"));
        }
        server.stop(0);
        pool.shutdown();
        System.out.println("served, squares sum " + sum.get());
    }
}
