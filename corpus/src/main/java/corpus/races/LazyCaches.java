package corpus.races;

/**
 * Shapes with two caches each computes when first asked, as a type system keeps its types'
 * hashes and outlines: two threads share the shapes with nothing ordering the caches. The drawer
 * asks for every outline, then hashes every shape; the reader waits a while, as if that were
 * enough for the drawer to be done, then asks for the outlines of the first half, drawing those it
 * finds missing, and hashes the shapes from the last. How many outlines the reader draws depends on how far the
 * drawer got, and the output shows it. Both threads race on the hashes where a race watch sees
 * it, the reader meeting the drawer's last writes; the outlines it reads were written tens of
 * thousands of writes before, longer than a watch remembers: what tells it that the outlines are
 * shared unordered is their class's other race.
 */
public final class LazyCaches {
    private static final class Shape {
        final int id;
        int hash;
        Object outline;

        Shape(int id) {
            this.id = id;
        }

        @Override
        public int hashCode() {
            int h = hash;
            if (h == 0) {
                h = (id * 0x9E3779B1) | 1;
                hash = h;
            }
            return h;
        }

        /** The outline, drawn when first asked, counted in {@code drawn}. */
        Object outline(int[] drawn) {
            Object o = outline;
            if (o == null) {
                drawn[0]++;
                o = "outline " + id;
                outline = o;
            }
            return o;
        }
    }

    public static void main(String[] args) throws Exception {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 200_000;
        Shape[] shapes = new Shape[n];
        for (int i = 0; i < n; i++) {
            shapes[i] = new Shape(i);
        }
        long[] hashes = new long[2];
        int[] drawn = new int[1];
        int[] drawerDrew = new int[1];
        Thread drawer = new Thread(() -> {
            for (int i = 0; i < n; i++) {
                shapes[i].outline(drawerDrew);
            }
            for (int i = 0; i < n; i++) {
                hashes[0] += shapes[i].hashCode();
            }
        });
        Thread reader = new Thread(() -> {
            try {
                Thread.sleep(200);
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
            for (int i = 0; i < n / 2; i++) {
                shapes[i].outline(drawn);
            }
            for (int i = n - 1; i >= 0; i--) {
                hashes[1] += shapes[i].hashCode();
            }
        });
        drawer.start();
        reader.start();
        drawer.join();
        reader.join();
        System.out.println("outlines the reader drew " + drawn[0] + ", hashes " + (hashes[0] == hashes[1]));
    }
}
