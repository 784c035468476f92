package conformance.spring;
import org.springframework.context.ApplicationEvent;
public class BatchDoneEvent extends ApplicationEvent {
    private final int chunk; private final long sum;
    public BatchDoneEvent(Object src, int chunk, long sum) { super(src); this.chunk = chunk; this.sum = sum; }
    public int chunk() { return chunk; }
    public long sum() { return sum; }
}
