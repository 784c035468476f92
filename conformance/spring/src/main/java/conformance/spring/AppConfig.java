package conformance.spring;

import java.util.concurrent.Executor;
import org.springframework.cache.CacheManager;
import org.springframework.cache.annotation.EnableCaching;
import org.springframework.cache.concurrent.ConcurrentMapCacheManager;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.ComponentScan;
import org.springframework.context.annotation.Configuration;
import org.springframework.scheduling.annotation.EnableAsync;
import org.springframework.scheduling.concurrent.ThreadPoolTaskExecutor;

@Configuration
@ComponentScan("conformance.spring")
@EnableAsync
@EnableCaching
public class AppConfig {
    @Bean(name = "taskExecutor")
    public Executor taskExecutor() {
        ThreadPoolTaskExecutor ex = new ThreadPoolTaskExecutor();
        ex.setCorePoolSize(4);
        ex.setMaxPoolSize(4);
        ex.setQueueCapacity(1000);
        ex.setThreadNamePrefix("work-");
        ex.setWaitForTasksToCompleteOnShutdown(true);
        ex.setAwaitTerminationSeconds(30);
        ex.initialize();
        return ex;
    }

    @Bean
    public CacheManager cacheManager() {
        return new ConcurrentMapCacheManager("squares", "names");
    }

    @Bean
    public Multiplier multiplier() {
        return new Multiplier(7);
    }

    @Bean
    public Pipeline pipeline(Multiplier m) {
        // calls multiplier() to exercise the CGLIB-proxied config
        return new Pipeline(m, multiplier());
    }
}
