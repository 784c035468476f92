package corpus.juc;

import java.lang.reflect.Method;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;

/**
 * What the java.util.concurrent programs share: starting a few lettered threads together, or
 * virtual threads, and printing an order of letters or numbers briefly.
 */
final class Interleavings {
    /** The body of one of the threads started by {@link #together}: its index and letter. */
    interface Body {
        void run(int index, char who) throws Exception;
    }

    private Interleavings() {
    }

    /**
     * Runs {@code body} on {@code n} threads named A, B, C, ..., released together by a start
     * gate, and waits for them all. A thread's failure fails the program.
     */
    static void together(int n, Body body) throws InterruptedException {
        CountDownLatch gate = new CountDownLatch(1);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread[] threads = new Thread[n];
        for (int t = 0; t < n; t++) {
            int index = t;
            char who = (char) ('A' + t);
            threads[t] = new Thread(() -> {
                try {
                    gate.await();
                    body.run(index, who);
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                }
            }, String.valueOf(who));
            threads[t].start();
        }
        gate.countDown();
        for (Thread t : threads) {
            t.join();
        }
        if (failure.get() != null) {
            throw new IllegalStateException("a thread failed", failure.get());
        }
    }

    /**
     * What starts a virtual thread running a task (JDK 21 and later, reached reflectively, as the
     * corpus is compiled for 17), or null on an older JDK.
     */
    static Function<Runnable, Thread> virtualThreadStarter() throws ReflectiveOperationException {
        Method ofVirtual;
        Method start;
        try {
            ofVirtual = Thread.class.getMethod("ofVirtual");
            start = Class.forName("java.lang.Thread$Builder").getMethod("start", Runnable.class);
        } catch (NoSuchMethodException | ClassNotFoundException e) {
            return null;
        }
        Object builder = ofVirtual.invoke(null);
        return task -> {
            try {
                return (Thread) start.invoke(builder, task);
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException(e);
            }
        };
    }

    /** Run-length form of a string of letters: {@code AAABCC} is {@code A3BC2}. */
    static String runs(CharSequence s) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < s.length();) {
            char c = s.charAt(i);
            int j = i;
            while (j < s.length() && s.charAt(j) == c) {
                j++;
            }
            out.append(c);
            if (j - i > 1) {
                out.append(j - i);
            }
            i = j;
        }
        return out.toString();
    }

    /** Consecutive runs of ascending numbers: {@code 0 1 2 7 8 3} is {@code 0-2,7-8,3}. */
    static String ranges(Iterable<Integer> numbers) {
        StringBuilder out = new StringBuilder();
        Integer start = null;
        Integer prev = null;
        for (int n : numbers) {
            if (prev != null && n == prev + 1) {
                prev = n;
                continue;
            }
            appendRange(out, start, prev);
            start = n;
            prev = n;
        }
        appendRange(out, start, prev);
        return out.toString();
    }

    private static void appendRange(StringBuilder out, Integer start, Integer end) {
        if (start == null) {
            return;
        }
        if (out.length() > 0) {
            out.append(',');
        }
        out.append(start);
        if (!end.equals(start)) {
            out.append('-').append(end);
        }
    }

    /**
     * A short name for the current thread: its own name when short (A, B, main), else a pool
     * thread's prefix letter and number ({@code pool-3-thread-2} is {@code p2},
     * {@code ForkJoinPool-1-worker-3} is {@code w3}, a common pool worker {@code c1}).
     */
    static String label() {
        String name = Thread.currentThread().getName();
        if (name.equals("main")) {
            return "m";
        }
        int dash = name.lastIndexOf('-');
        if (dash < 0 || name.length() <= 2) {
            return name.isEmpty() ? "v" : name;
        }
        String number = name.substring(dash + 1);
        if (name.startsWith("ForkJoinPool.commonPool")) {
            return "c" + number;
        }
        if (name.startsWith("ForkJoinPool")) {
            return "w" + number;
        }
        if (name.startsWith("pool-")) {
            return "p" + number;
        }
        return name;
    }
}
