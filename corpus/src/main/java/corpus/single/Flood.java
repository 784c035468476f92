package corpus.single;

/**
 * Prints {@code LINES} lines, each with a clock reading, then READY, then sleeps {@code SECONDS}:
 * a run that fills several recording chunks and, with a long sleep, is still alive to be killed.
 * Usage: {@code Flood LINES SECONDS}.
 */
public final class Flood {
    public static void main(String[] args) throws InterruptedException {
        int lines = Integer.parseInt(args[0]);
        for (int i = 0; i < lines; i++) {
            System.out.println("line " + i + " at " + System.nanoTime());
        }
        System.out.println("READY");
        Thread.sleep(Integer.parseInt(args[1]) * 1000L);
        System.out.println("done");
    }
}
