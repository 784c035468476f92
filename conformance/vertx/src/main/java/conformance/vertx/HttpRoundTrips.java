package conformance.vertx;

import io.vertx.core.*;
import io.vertx.core.http.*;
import java.util.*;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.*;

/** Vert.x 4: an HTTP server and its client on event loops, 60 requests over 127.0.0.1. */
public class HttpRoundTrips {
    public static void main(String[] a) throws Exception {
        Vertx vx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(2));
        AtomicInteger served = new AtomicInteger();
        CompletableFuture<Integer> port = new CompletableFuture<>();
        vx.createHttpServer().requestHandler(req -> {
            served.incrementAndGet();
            req.response().putHeader("content-type", "text/plain").end("hello " + req.path());
        }).listen(0, "127.0.0.1").onSuccess(s -> port.complete(s.actualPort())).onFailure(port::completeExceptionally);
        int p = port.get(10, TimeUnit.SECONDS);
        HttpClient client = vx.createHttpClient(new HttpClientOptions().setMaxPoolSize(4));
        List<Future<String>> all = new ArrayList<>();
        for (int i = 0; i < 60; i++) {
            String path = "/item/" + i;
            all.add(client.request(HttpMethod.GET, p, "127.0.0.1", path).compose(r -> r.send()).compose(r -> r.body()).map(b -> path + " -> " + b.toString()));
        }
        List<String> got = new ArrayList<>();
        for (Future<String> f : all) got.add(f.toCompletionStage().toCompletableFuture().get(20, TimeUnit.SECONDS));
        Collections.sort(got);
        System.out.println(got.size() + " answers, first " + got.get(0) + ", last " + got.get(got.size() - 1) + ", served " + served.get());
        vx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }
}
