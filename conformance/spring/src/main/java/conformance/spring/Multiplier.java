package conformance.spring;
public class Multiplier {
    private final int factor;
    public Multiplier(int factor) { this.factor = factor; }
    public long apply(long x) { return x * factor; }
}
