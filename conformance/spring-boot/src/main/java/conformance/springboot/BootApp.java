package conformance.springboot;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.Banner;
import org.springframework.boot.CommandLineRunner;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.scheduling.annotation.Async;
import org.springframework.scheduling.annotation.EnableAsync;
import org.springframework.stereotype.Service;

/**
 * A Spring Boot application (no web server), as its guides start one: auto-configuration (Boot's
 * background initializer thread, its task executor, its lambda beans), a
 * {@code @ConfigurationProperties} class, field injection into the application class, which CGLIB
 * enhances, and {@code @Async} work on Boot's executor. Logs through Logback, prints the work's
 * result, and exits with Boot's exit code.
 */
@SpringBootApplication
@EnableAsync
@EnableConfigurationProperties(BootApp.Settings.class)
public class BootApp implements CommandLineRunner {
    /** Bound from the environment's {@code tally.*} properties; none are set, so the defaults hold. */
    @ConfigurationProperties("tally")
    public static class Settings {
        private int workers = 4;
        private String greeting = "tallied";

        public int getWorkers() {
            return workers;
        }

        public void setWorkers(int workers) {
            this.workers = workers;
        }

        public String getGreeting() {
            return greeting;
        }

        public void setGreeting(String greeting) {
            this.greeting = greeting;
        }
    }

    /** Sums one batch on Boot's task executor. */
    @Service
    public static class Counter {
        @Async
        public CompletableFuture<Integer> count(int n) {
            int s = 0;
            for (int i = 0; i < n; i++) {
                s += Integer.toString(i).hashCode() % 7;
            }
            return CompletableFuture.completedFuture(s);
        }
    }

    @Autowired
    private Counter counter;
    @Autowired
    private Settings settings;

    public static void main(String[] args) {
        SpringApplication app = new SpringApplication(BootApp.class);
        app.setBannerMode(Banner.Mode.OFF);
        System.exit(SpringApplication.exit(app.run(args)));
    }

    @Override
    public void run(String... args) throws Exception {
        List<CompletableFuture<Integer>> batches = new ArrayList<>();
        for (int i = 0; i < settings.getWorkers() * 4; i++) {
            batches.add(counter.count(1000 * (i + 1)));
        }
        int total = 0;
        for (CompletableFuture<Integer> f : batches) {
            total += f.get();
        }
        System.out.println(settings.getGreeting() + " " + total);
    }
}
