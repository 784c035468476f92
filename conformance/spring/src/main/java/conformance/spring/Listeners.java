package conformance.spring;

import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import org.springframework.context.event.EventListener;
import org.springframework.scheduling.annotation.Async;
import org.springframework.stereotype.Component;

@Component
public class Listeners {
    private final ConcurrentSkipListMap<Integer, Long> syncSeen = new ConcurrentSkipListMap<>();
    private final AtomicLong asyncTotal = new AtomicLong();
    private volatile CountDownLatch latch = new CountDownLatch(0);

    public void expect(int n) { latch = new CountDownLatch(n); }
    public void await() throws InterruptedException { latch.await(); }

    @EventListener
    public void onBatch(BatchDoneEvent e) { syncSeen.put(e.chunk(), e.sum()); }

    @Async
    @EventListener
    public void onBatchAsync(BatchDoneEvent e) {
        asyncTotal.addAndGet(e.sum());
        latch.countDown();
    }

    public ConcurrentSkipListMap<Integer, Long> syncSeen() { return syncSeen; }
    public long asyncTotal() { return asyncTotal.get(); }
}
