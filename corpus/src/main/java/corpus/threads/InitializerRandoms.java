package corpus.threads;

import corpus.Expect;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Two threads released together first use six classes in opposite orders, so which thread runs
 * each static initializer is a race; each initializer draws from {@code ThreadLocalRandom}, whose
 * state the JDK keeps on the thread that runs it. Afterwards each thread draws again and fills a
 * {@code ConcurrentSkipListMap}, whose index levels come from the thread's secondary seed. Prints
 * what the initializers drew, each thread's later draws and the maps' contents.
 */
@Expect(plainRunsDiffer = true)
public final class InitializerRandoms {
    static int draw() {
        return ThreadLocalRandom.current().nextInt(1_000);
    }

    static final class A {
        static final int DRAWN = draw();
    }

    static final class B {
        static final int DRAWN = draw();
    }

    static final class C {
        static final int DRAWN = draw();
    }

    static final class D {
        static final int DRAWN = draw();
    }

    static final class E {
        static final int DRAWN = draw();
    }

    /** Its map's index levels come from the running thread's secondary seed. */
    static final class F {
        static final int DRAWN;

        static {
            ConcurrentSkipListMap<Integer, Integer> map = new ConcurrentSkipListMap<>();
            for (int i = 0; i < 50; i++) {
                map.put(draw(), i);
            }
            DRAWN = map.size() * 1_000 + map.firstKey();
        }
    }

    private InitializerRandoms() {
    }

    private static int use(int which) {
        return switch (which) {
            case 0 -> A.DRAWN;
            case 1 -> B.DRAWN;
            case 2 -> C.DRAWN;
            case 3 -> D.DRAWN;
            case 4 -> E.DRAWN;
            default -> F.DRAWN;
        };
    }

    /** Uses the classes in {@code order}, then draws and fills a skip list; returns what it saw. */
    private static String run(CountDownLatch go, int[] order) {
        try {
            go.await();
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
        long sum = 0;
        for (int which : order) {
            sum += use(which);
        }
        ConcurrentSkipListMap<Integer, Integer> map = new ConcurrentSkipListMap<>();
        StringBuilder drawn = new StringBuilder();
        for (int i = 0; i < 200; i++) {
            int d = draw();
            map.put(d, i);
            if (i < 5) {
                drawn.append(d).append(' ');
            }
        }
        return "sum " + sum + ", drew " + drawn + "keys " + map.size() + " first " + map.firstKey();
    }

    public static void main(String[] args) throws InterruptedException {
        CountDownLatch go = new CountDownLatch(1);
        String[] other = new String[1];
        Thread t = new Thread(() -> other[0] = run(go, new int[] {0, 1, 2, 3, 4, 5}), "forward");
        t.start();
        go.countDown();
        String mine = run(go, new int[] {5, 4, 3, 2, 1, 0});
        t.join();
        System.out.println("A " + A.DRAWN + " B " + B.DRAWN + " C " + C.DRAWN + " D " + D.DRAWN + " E " + E.DRAWN
                + " F " + F.DRAWN);
        System.out.println("main: " + mine);
        System.out.println("forward: " + other[0]);
    }
}
