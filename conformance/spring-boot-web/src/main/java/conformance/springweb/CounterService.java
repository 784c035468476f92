package conformance.springweb;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.web.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;

/**
 * A Spring Boot web application on embedded Tomcat, on a free port of 127.0.0.1, and its own
 * client: the JDK's {@code HttpClient} sends 40 requests at once, which Tomcat's pool serves
 * while Spring MVC and Jackson fill their caches from several threads. Prints how many answers
 * came back and the counts the service kept.
 */
@SpringBootApplication
@RestController
public class CounterService {
    private final Map<String, Integer> counts = new ConcurrentHashMap<>();

    @GetMapping("/hit/{name}")
    public Map<String, Object> hit(@PathVariable("name") String name) {
        return Map.of("name", name, "count", counts.merge(name, 1, Integer::sum));
    }

    public static void main(String[] args) throws Exception {
        ConfigurableApplicationContext ctx = SpringApplication.run(CounterService.class, "--server.port=0",
                "--server.address=127.0.0.1", "--spring.main.banner-mode=off");
        int port = ((WebServerApplicationContext) ctx).getWebServer().getPort();
        HttpClient client = HttpClient.newHttpClient();
        List<CompletableFuture<String>> answers = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            URI uri = URI.create("http://127.0.0.1:" + port + "/hit/n" + (i % 5));
            answers.add(client.sendAsync(HttpRequest.newBuilder(uri).build(), HttpResponse.BodyHandlers.ofString())
                    .thenApply(HttpResponse::body));
        }
        int answered = 0;
        for (CompletableFuture<String> a : answers) {
            if (a.get().contains("\"count\"")) {
                answered++;
            }
        }
        System.out.println("answered " + answered + " of " + answers.size());
        System.out.println("counts " + new TreeMap<>(ctx.getBean(CounterService.class).counts));
        System.exit(SpringApplication.exit(ctx));
    }
}
