package corpus.single;

import corpus.Expect;

/**
 * A recursion that reads the clock only every 64th level until its stack overflows, caught and
 * made again five times, then a clock read after: the overflow comes in the program's own code,
 * between two of Reprise's events, at a depth that differs from run to run. A replay, whose stack
 * is larger, must throw it where the program catches it as the recording did, and go on the
 * recording's way.
 */
@Expect(plainRunsDiffer = true)
public final class OverflowBetweenEvents {
    private static long sink;

    private OverflowBetweenEvents() {
    }

    private static long descend(int n, long a, long b, long c, long d) {
        if ((n & 63) == 0) {
            sink += System.nanoTime() & 1;
        }
        long e = a * 31 + b;
        long f = c * 17 + d;
        return descend(n + 1, e, f, e ^ f, n) + e - f;
    }

    public static void main(String[] args) throws Exception {
        int caught = 0;
        for (int i = 0; i < 5; i++) {
            try {
                sink += descend(0, i, 1, 2, 3);
            } catch (StackOverflowError e) {
                caught++;
            }
        }
        System.out.println("caught " + caught + " overflows");
        Thread.sleep(10);
        System.out.println("time after them " + System.currentTimeMillis());
    }
}
