package conformance;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/**
 * log4j2's asynchronous loggers (on LMAX Disruptor's ring buffer): a pool of three threads logs
 * N lines, each with its thread and a timestamp, to the console and to a file, through one
 * background thread.
 */
public final class Log4jAsyncDriver {
    public static void main(String[] args) throws Exception {
        System.setProperty("log4j2.contextSelector", "org.apache.logging.log4j.core.async.AsyncLoggerContextSelector");
        int lines = Integer.parseInt(args[0]);
        Logger log = LogManager.getLogger(Log4jAsyncDriver.class);
        ExecutorService pool = Executors.newFixedThreadPool(3);
        ConcurrentHashMap<String, Integer> counts = new ConcurrentHashMap<>();
        for (int i = 0; i < lines; i++) {
            int n = i;
            pool.submit(() -> {
                log.info("task {} on {}", n, Thread.currentThread().getName());
                counts.merge("k" + (n % 7), 1, Integer::sum);
            });
        }
        pool.shutdown();
        pool.awaitTermination(1, TimeUnit.MINUTES);
        log.warn("done {}", counts);
        LogManager.shutdown();
        System.out.println("counts " + counts);
    }
}
