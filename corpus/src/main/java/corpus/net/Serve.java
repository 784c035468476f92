package corpus.net;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;

import com.sun.net.httpserver.HttpServer;

/**
 * A web service for clients in other processes: the JDK's {@code HttpServer} on the loopback
 * interface and a pool of four threads. Prints its port, answers {@code /square?n=N} with N squared
 * and the size of the request's body, and stops after {@code args[0]} requests, printing their
 * sum. Which client asked what, and when, is the clients' business: the sum is the same.
 */
public final class Serve {
    public static void main(String[] args) throws Exception {
        int requests = Integer.parseInt(args[0]);
        CountDownLatch done = new CountDownLatch(requests);
        AtomicLong sum = new AtomicLong();
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 50);
        ExecutorService pool = Executors.newFixedThreadPool(4);
        server.setExecutor(pool);
        server.createContext("/square", exchange -> {
            Squares.answer(exchange, sum);
            done.countDown();
        });
        server.start();
        System.out.println("port " + server.getAddress().getPort());
        done.await();
        server.stop(0);
        pool.shutdown();
        System.out.println("served " + requests + ", squares sum " + sum.get());
    }
}
