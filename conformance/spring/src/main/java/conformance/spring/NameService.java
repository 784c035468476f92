package conformance.spring;

import java.util.concurrent.atomic.AtomicInteger;
import org.springframework.cache.annotation.Cacheable;
import org.springframework.stereotype.Component;

@Component
public class NameService {
    private final AtomicInteger misses = new AtomicInteger();
    @Cacheable(cacheNames = "names", key = "#p0")
    public String nameFor(int bucket) {
        misses.incrementAndGet();
        return "bucket-" + String.format("%02d", bucket);
    }
    public int misses() { return misses.get(); }
}
