package corpus.net;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicLong;

import com.sun.net.httpserver.HttpExchange;

/** The service the corpus's web servers run: {@code /square?n=N} answers N squared and the size of the body it got. */
final class Squares {
    private Squares() {
    }

    static void answer(HttpExchange exchange, AtomicLong sum) throws IOException {
        String query = exchange.getRequestURI().getQuery();
        long n = Long.parseLong(query.substring(query.indexOf('=') + 1));
        byte[] body = exchange.getRequestBody().readAllBytes();
        byte[] reply = (n * n + " (" + body.length + " bytes in)").getBytes(StandardCharsets.UTF_8);
        exchange.sendResponseHeaders(200, reply.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(reply);
        }
        sum.addAndGet(n * n);
    }
}
