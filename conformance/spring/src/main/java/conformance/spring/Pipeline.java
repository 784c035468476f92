package conformance.spring;
public class Pipeline {
    private final Multiplier a, b;
    public Pipeline(Multiplier a, Multiplier b) { this.a = a; this.b = b; }
    public boolean sameMultiplier() { return a == b; }
    public long run(long x) { return a.apply(x) + 1; }
}
