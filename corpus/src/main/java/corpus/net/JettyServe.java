package corpus.net;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;

import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * {@link Serve}'s web service on embedded Jetty: its selector, its pool of up to sixteen threads
 * and the per-thread caches its requests use (the {@code Date} header's formatters). Prints its
 * port, answers {@code /square?n=N} with N squared and the size of the request's body, and stops
 * after {@code args[0]} requests, printing their sum.
 */
public final class JettyServe {
    private JettyServe() {
    }

    public static void main(String[] args) throws Exception {
        int requests = Integer.parseInt(args[0]);
        CountDownLatch done = new CountDownLatch(requests);
        AtomicLong sum = new AtomicLong();
        Server server = new Server(new QueuedThreadPool(16, 4));
        ServerConnector connector = new ServerConnector(server);
        connector.setHost("127.0.0.1");
        connector.setPort(0);
        server.addConnector(connector);
        server.setHandler(new Handler.Abstract() {
            @Override
            public boolean handle(Request request, Response response, Callback callback) throws Exception {
                long n = Long.parseLong(Request.extractQueryParameters(request).getValue("n"));
                String body = Content.Source.asString(request, StandardCharsets.UTF_8);
                byte[] reply = (n * n + " (" + body.length() + " bytes in)").getBytes(StandardCharsets.UTF_8);
                response.getHeaders().put("Content-Length", reply.length);
                sum.addAndGet(n * n);
                // Counted once the answer is written: the server stops at the last count.
                response.write(true, ByteBuffer.wrap(reply), Callback.from(() -> {
                    callback.succeeded();
                    done.countDown();
                }, callback::failed));
                return true;
            }
        });
        server.start();
        System.out.println("port " + connector.getLocalPort());
        done.await();
        server.stop();
        System.out.println("served " + requests + ", squares sum " + sum.get());
    }
}
