package conformance.spring;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.scheduling.annotation.Async;
import org.springframework.stereotype.Service;

@Service
public class ChunkWorker {
    private final SquareService squares;
    private final NameService names;
    private final Pipeline pipeline;
    private final ApplicationEventPublisher publisher;

    public ChunkWorker(SquareService squares, NameService names, Pipeline pipeline, ApplicationEventPublisher publisher) {
        this.squares = squares; this.names = names; this.pipeline = pipeline; this.publisher = publisher;
    }

    public record ChunkResult(int chunk, long sum, Map<String, Long> perBucket) {}

    @Async
    public CompletableFuture<ChunkResult> process(int chunk, List<Integer> items) {
        long sum = 0;
        Map<String, Long> per = new TreeMap<>();
        for (int it : items) {
            long sq = squares.square(chunk * 1000 + it % 100);   // per-chunk key space, values repeat -> cache hits
            long v = pipeline.run(sq) % 1_000_003;
            sum += v;
            per.merge(names.nameFor(it % 16), v, Long::sum);
        }
        publisher.publishEvent(new BatchDoneEvent(this, chunk, sum));
        return CompletableFuture.completedFuture(new ChunkResult(chunk, sum, per));
    }
}
