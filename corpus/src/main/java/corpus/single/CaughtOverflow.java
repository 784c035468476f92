package corpus.single;

import corpus.Expect;

/**
 * A recursion that reads the clock at every level until its stack overflows, caught and made
 * again, then a clock read after: the overflow comes inside an event of Reprise's at whatever
 * depth the stack ran out, which differs from run to run. A replay must overflow at the
 * recording's depth, where the program catches it, and go on recording's way.
 */
@Expect(plainRunsDiffer = true)
public final class CaughtOverflow {
    private static long sink;

    private CaughtOverflow() {
    }

    private static int descend(int n) {
        sink += System.nanoTime() & 1;
        return descend(n + 1) + 1;
    }

    public static void main(String[] args) throws Exception {
        int caught = 0;
        for (int i = 0; i < 5; i++) {
            try {
                descend(0);
            } catch (StackOverflowError e) {
                caught++;
            }
        }
        System.out.println("caught " + caught + " overflows");
        Thread.sleep(10);
        System.out.println("time after them " + System.currentTimeMillis());
    }
}
