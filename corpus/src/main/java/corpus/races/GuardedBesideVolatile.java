package corpus.races;

/**
 * A promise as Netty's is made: a volatile result, and a count of waiters that only code holding
 * the promise's monitor touches. Two threads wait for each promise while main sets its result
 * (a volatile write) and then, holding the monitor, reads the count to decide whether to notify.
 * No plain field is raced on: the monitor orders every access to the count. Exercises the race
 * watch's edges between a monitor's holders when the object's volatile write comes between.
 */
public final class GuardedBesideVolatile {
    private volatile Object result;
    private short waiters;
    private int notifications;

    synchronized void await() throws InterruptedException {
        while (result == null) {
            waiters++;
            try {
                wait();
            } finally {
                waiters--;
            }
        }
    }

    void complete(Object value) {
        result = value;
        synchronized (this) {
            if (waiters > 0) {
                notifications++;
                notifyAll();
            }
        }
    }

    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 200;
        int notified = 0;
        for (int r = 0; r < rounds; r++) {
            GuardedBesideVolatile promise = new GuardedBesideVolatile();
            Thread[] waiting = new Thread[2];
            for (int t = 0; t < waiting.length; t++) {
                waiting[t] = new Thread(() -> {
                    try {
                        promise.await();
                    } catch (InterruptedException e) {
                        throw new IllegalStateException(e);
                    }
                });
                waiting[t].start();
            }
            Thread.sleep(1);
            promise.complete(r);
            for (Thread t : waiting) {
                t.join();
            }
            synchronized (promise) {
                notified += promise.notifications;
            }
        }
        System.out.println(rounds + " promises completed, " + notified + " of them with waiters to notify");
    }
}
