package corpus.threads;

/**
 * Not data-race free: a searcher keeps a shared page's plain {@code hint} (where its last binary
 * search ended, to start the next one there) up to date, while a copier keeps replacing the page
 * with a {@code clone()} of it, as a copy-on-write tree does, and adds up the hints the copies
 * carried. What it adds up depends on the interleaving. With the field named by
 * {@code --order-field}, the copy reads it as the field's own accesses do, in the recorded order.
 */
public final class RacyCopies {
    static final class Page implements Cloneable {
        final int[] keys;
        int hint;

        Page(int[] keys) {
            this.keys = keys;
        }

        Page copy() {
            try {
                return (Page) clone();
            } catch (CloneNotSupportedException e) {
                throw new AssertionError(e);
            }
        }

        /** The index of {@code key}, or where it would go: a binary search from the hint. */
        int search(int key) {
            int low = 0;
            int high = keys.length - 1;
            int x = hint - 1;
            if (x < 0 || x > high) {
                x = high >>> 1;
            }
            while (low <= high) {
                if (key > keys[x]) {
                    low = x + 1;
                } else if (key < keys[x]) {
                    high = x - 1;
                } else {
                    hint = x + 1;
                    return x;
                }
                x = (low + high) >>> 1;
            }
            hint = low;
            return low;
        }
    }

    static volatile Page current;

    public static void main(String[] args) throws Exception {
        int[] keys = new int[1024];
        for (int i = 0; i < keys.length; i++) {
            keys[i] = 2 * i;
        }
        current = new Page(keys);
        Thread searcher = new Thread(() -> {
            for (int i = 0; i < 200_000; i++) {
                current.search((int) ((i * 7919L) % 2048));
            }
        });
        long[] hints = new long[1];
        Thread copier = new Thread(() -> {
            for (int i = 0; i < 20_000; i++) {
                Page copy = current.copy();
                hints[0] += copy.hint;
                current = copy;
            }
        });
        searcher.start();
        copier.start();
        searcher.join();
        copier.join();
        System.out.println("hints " + hints[0]);
    }
}
