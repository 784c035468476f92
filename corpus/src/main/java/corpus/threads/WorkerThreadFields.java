package corpus.threads;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;

import corpus.Expect;

/**
 * Threads whose shared state lives in their own {@code Thread} subclass, as a scheduler keeps it
 * in its workers (kotlinx.coroutines' parked-worker stack links workers through a volatile field
 * of each, and claims them through a field updater): each worker's volatile field, a field
 * updater's counter and a {@code VarHandle}'s, written and read by every other worker. Which
 * values each worker reads is the race; each prints a checksum of them. Expected: a replay's
 * workers read the recording's values.
 */
@Expect(plainRunsDiffer = true)
public final class WorkerThreadFields {
    private static final int WORKERS = 4;
    private static final int ROUNDS = 20_000;

    private WorkerThreadFields() {
    }

    static final class Worker extends Thread {
        private static final AtomicIntegerFieldUpdater<Worker> TICKETS =
                AtomicIntegerFieldUpdater.newUpdater(Worker.class, "tickets");
        private static final VarHandle VISITS;

        static {
            try {
                VISITS = MethodHandles.lookup().findVarHandle(Worker.class, "visits", long.class);
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }

        private final int id;
        private final Worker[] all;
        /** The last worker that wrote here, and its round. */
        volatile int inbox;
        volatile int tickets;
        volatile long visits;
        long checksum;

        Worker(int id, Worker[] all) {
            super("worker-" + id);
            this.id = id;
            this.all = all;
        }

        @Override
        public void run() {
            long sum = 0;
            for (int i = 0; i < ROUNDS; i++) {
                Worker other = all[(id + 1 + i % (WORKERS - 1)) % WORKERS];
                other.inbox = id * 1_000_000 + i;
                int ticket = TICKETS.getAndIncrement(other);
                long visit = (long) VISITS.getAndAdd(other, 1L);
                sum = sum * 31 + inbox + ticket * 7L + visit;
            }
            checksum = sum;
        }
    }

    public static void main(String[] args) throws InterruptedException {
        Worker[] workers = new Worker[WORKERS];
        for (int w = 0; w < WORKERS; w++) {
            workers[w] = new Worker(w, workers);
        }
        for (Worker w : workers) {
            w.start();
        }
        for (Worker w : workers) {
            w.join();
        }
        for (Worker w : workers) {
            System.out.println(w.getName() + ": tickets " + w.tickets + ", visits " + w.visits
                    + ", checksum " + Long.toHexString(w.checksum));
        }
    }
}
