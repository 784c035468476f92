package corpus.lifecycle;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Threads that print until the program is ended from outside: main and {@code WORKERS} workers
 * each print numbered lines, with a clock reading, pausing a millisecond every ten lines, and a
 * shutdown hook prints how many lines were printed. Main prints READY once every worker has
 * printed. The threads print {@code LINES} lines each, then keep printing slowly until the
 * program is ended; with {@code halt N} after the arguments, main halts with status N after its
 * {@code LINES} lines instead.
 * Usage: {@code Chatter WORKERS LINES [halt N]}.
 */
public final class Chatter {
    private static final AtomicLong PRINTED = new AtomicLong();

    public static void main(String[] args) throws Exception {
        int workers = Integer.parseInt(args[0]);
        long lines = Long.parseLong(args[1]);
        Integer halt = args.length > 3 && args[2].equals("halt") ? Integer.valueOf(args[3]) : null;
        Runtime.getRuntime().addShutdownHook(new Thread(() ->
                System.out.println("hook: " + PRINTED.get() + " lines printed")));
        Thread[] threads = new Thread[workers];
        for (int w = 0; w < workers; w++) {
            String name = "worker " + w;
            threads[w] = new Thread(() -> chatter(name, lines));
            threads[w].setDaemon(true);
            threads[w].start();
        }
        while (PRINTED.get() < workers) {
            Thread.sleep(1);
        }
        System.out.println("READY");
        if (halt != null) {
            for (long i = 0; i < lines; i++) {
                paced("main", i, lines);
            }
            Runtime.getRuntime().halt(halt);
        }
        chatter("main", lines);
    }

    private static void chatter(String who, long lines) {
        for (long i = 0; ; i++) {
            paced(who, i, lines);
        }
    }

    /** Line {@code i}, then a pause every ten lines: 1 ms in the first {@code lines}, 50 ms after. */
    private static void paced(String who, long i, long lines) {
        line(who, i);
        if (i % 10 == 9) {
            sleep(i < lines ? 1 : 50);
        }
    }

    private static void line(String who, long i) {
        System.out.println(who + " line " + i + " at " + System.nanoTime());
        PRINTED.incrementAndGet();
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
