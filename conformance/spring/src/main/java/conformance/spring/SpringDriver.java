package conformance.spring;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import org.springframework.aop.support.AopUtils;
import org.springframework.cache.Cache;
import org.springframework.cache.CacheManager;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;

/**
 * A Spring Framework application context (no Boot): component scanning, constructor injection, a
 * configuration class that CGLIB enhances, {@code @Async} methods on a pool of four threads
 * returning futures, {@code @Cacheable} services over concurrent maps, and an application event
 * with a synchronous and an asynchronous listener. Prints what the work computed and what the
 * caches hold, in a fixed order.
 */
public class SpringDriver {
    public static void main(String[] args) throws Exception {
        java.util.logging.Logger.getLogger("").setLevel(java.util.logging.Level.WARNING);
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 2000;
        int chunks = 8;
        try (AnnotationConfigApplicationContext ctx = new AnnotationConfigApplicationContext(AppConfig.class)) {
            ChunkWorker worker = ctx.getBean(ChunkWorker.class);
            Listeners listeners = ctx.getBean(Listeners.class);
            SquareService sq = ctx.getBean(SquareService.class);
            NameService ns = ctx.getBean(NameService.class);
            Pipeline pipeline = ctx.getBean(Pipeline.class);

            System.out.println("config class enhanced by CGLIB: " + ctx.getBean(AppConfig.class).getClass().getName().contains("$$SpringCGLIB$$"));
            System.out.println("pipeline shares multiplier singleton: " + pipeline.sameMultiplier());
            System.out.println("worker is AOP proxy: " + AopUtils.isAopProxy(worker));

            // warm caches deterministically on the main thread
            for (int c = 0; c < chunks; c++) for (int k = 0; k < 100; k += 4) sq.square(c * 1000 + k);
            for (int b = 0; b < 16; b++) ns.nameFor(b);
            int warmComputations = sq.computations();
            int warmNameMisses = ns.misses();

            listeners.expect(chunks);
            List<CompletableFuture<ChunkWorker.ChunkResult>> futures = new ArrayList<>();
            int per = n / chunks;
            for (int c = 0; c < chunks; c++) {
                List<Integer> items = new ArrayList<>();
                for (int i = c * per; i < (c == chunks - 1 ? n : (c + 1) * per); i++) items.add(i);
                futures.add(worker.process(c, items));
            }
            CompletableFuture.allOf(futures.toArray(new CompletableFuture[0])).join();
            listeners.await();

            long total = 0;
            Map<String, Long> buckets = new TreeMap<>();
            for (CompletableFuture<ChunkWorker.ChunkResult> f : futures) {
                ChunkWorker.ChunkResult r = f.join();
                System.out.println("chunk " + r.chunk() + " sum=" + r.sum());
                total += r.sum();
                r.perBucket().forEach((k, v) -> buckets.merge(k, v, Long::sum));
            }
            System.out.println("total=" + total);
            buckets.forEach((k, v) -> System.out.println(k + " -> " + v));
            System.out.println("sync listener chunks=" + listeners.syncSeen().keySet()
                    + " sum=" + listeners.syncSeen().values().stream().mapToLong(Long::longValue).sum());
            System.out.println("async listener total=" + listeners.asyncTotal());

            CacheManager cm = ctx.getBean(CacheManager.class);
            System.out.println("caches=" + new java.util.TreeSet<>(cm.getCacheNames()));
            Cache squares = cm.getCache("squares");
            @SuppressWarnings("unchecked")
            Map<Object, Object> nat = (Map<Object, Object>) squares.getNativeCache();
            System.out.println("squares cache size=" + nat.size() + " warm computations=" + warmComputations);
            int asyncMisses = sq.computations() - warmComputations;
            System.out.println("square calls=" + n + " async misses=" + asyncMisses + " async cache hits=" + (n - asyncMisses));
            System.out.println("name misses total=" + ns.misses() + " (warm " + warmNameMisses + ") name cache hits=" + (n - (ns.misses() - warmNameMisses)));
            System.out.println("name cache size=" + ((Map<?, ?>) cm.getCache("names").getNativeCache()).size());
            System.out.println("sorted name keys=" + new java.util.TreeSet<>(((Map<?, ?>) cm.getCache("names").getNativeCache()).keySet()));
        }
        System.out.println("context closed");
    }
}
