package programs;

/**
 * A program's class for the instrumentation tests, outside Reprise's packages, which the
 * transformer never instruments: one method per kind of rewrite, and one with nothing to rewrite.
 */
public final class StackSizes {
    private volatile int counter;
    private int plain;

    public int untouched(int x) {
        return plain + x;
    }

    public int volatileRead() {
        return counter;
    }

    public synchronized int synchronizedMethod() {
        return plain;
    }

    public int block() {
        synchronized (this) {
            return plain;
        }
    }

    public long time() {
        return System.currentTimeMillis();
    }
}
