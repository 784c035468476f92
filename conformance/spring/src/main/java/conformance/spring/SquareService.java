package conformance.spring;

import java.util.concurrent.atomic.AtomicInteger;
import org.springframework.cache.annotation.Cacheable;
import org.springframework.stereotype.Service;

@Service
public class SquareService {
    private final AtomicInteger computations = new AtomicInteger();
    @Cacheable("squares")
    public Long square(Integer n) {
        computations.incrementAndGet();
        long v = (long) n * n;
        return v;
    }
    public int computations() { return computations.get(); }
}
