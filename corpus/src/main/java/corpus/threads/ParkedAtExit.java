package corpus.threads;

import java.util.concurrent.locks.LockSupport;

import corpus.Expect;

/**
 * A daemon thread that writes a volatile field twice and parks for good, and the main thread
 * that, once the daemon is parked, reads the field, prints it and ends the program. The second
 * write follows the daemon's own first one, so it is relaxed: counted, not written, when the
 * exit cuts the daemon off in its park. The main thread's read is ordered after it, so a replay
 * must have the daemon make that write, though its stream ends before it.
 */
@Expect(orders = "rto")
public final class ParkedAtExit {
    private static final class Cell {
        volatile int value;
    }

    public static void main(String[] args) {
        Cell cell = new Cell();
        Thread writer = new Thread(() -> {
            cell.value = 1;
            cell.value = 2;
            while (true) {
                LockSupport.park();
            }
        }, "writer");
        writer.setDaemon(true);
        writer.start();
        // Waiting on the thread's state (recorded) reads nothing of the cell.
        while (writer.getState() != Thread.State.WAITING) {
            Thread.onSpinWait();
        }
        System.out.println("main read " + cell.value + " after the writer parked");
    }
}
