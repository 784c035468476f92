package corpus.juc;

import static corpus.juc.Interleavings.runs;
import static corpus.juc.Interleavings.together;

import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.Exchanger;
import java.util.concurrent.Phaser;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.concurrent.locks.StampedLock;

import corpus.Expect;

/**
 * The synchronizers of java.util.concurrent, each contended by three or four threads A, B, C, D:
 * one line each says in which order the threads got through (an unfair and a fair ReentrantLock
 * with tryLock and timed tryLock, a Condition handing out tokens, a ReentrantReadWriteLock, a
 * StampedLock's optimistic reads, a Semaphore, a CountDownLatch, a CyclicBarrier's arrivals and
 * which thread ran its action, a Phaser's phases, an Exchanger's pairings, and a baton handed on
 * with LockSupport.park and unpark).
 */
@Expect
public final class Synchronizers {
    public static void main(String[] args) throws Exception {
        unfairLock();
        fairLock();
        condition();
        readWriteLock();
        stampedLock();
        semaphore();
        latch();
        barrier();
        phaser();
        exchanger();
        baton();
    }

    static void unfairLock() throws Exception {
        ReentrantLock lock = new ReentrantLock();
        StringBuilder order = new StringBuilder();
        together(3, (t, who) -> {
            for (int i = 0; i < 60; i++) {
                lock.lock();
                try {
                    order.append(who);
                } finally {
                    lock.unlock();
                }
                Thread.yield();
            }
        });
        System.out.println("unfair lock: " + runs(order));
    }

    /** Upper case: got the lock at once (lock or tryLock); lower case: after waiting in tryLock(timeout); '-': gave up. */
    static void fairLock() throws Exception {
        ReentrantLock lock = new ReentrantLock(true);
        StringBuilder order = new StringBuilder();
        AtomicInteger gaveUp = new AtomicInteger();
        together(3, (t, who) -> {
            for (int i = 0; i < 40; i++) {
                char got;
                if (i % 5 == 0) {
                    lock.lock();
                    got = who;
                } else if (lock.tryLock()) {
                    got = who;
                } else if (lock.tryLock(50, TimeUnit.MILLISECONDS)) {
                    got = Character.toLowerCase(who);
                } else {
                    gaveUp.incrementAndGet();
                    continue;
                }
                try {
                    order.append(got);
                } finally {
                    lock.unlock();
                }
                Thread.yield();
            }
        });
        System.out.println("fair lock: " + runs(order) + " gave up " + gaveUp.get());
    }

    /** D hands out 30 tokens one at a time with signal(); A, B and C wait for them (C with a timed await). */
    static void condition() throws Exception {
        ReentrantLock lock = new ReentrantLock();
        Condition available = lock.newCondition();
        int[] tokens = {0};
        boolean[] done = {false};
        StringBuilder took = new StringBuilder();
        together(4, (t, who) -> {
            if (who == 'D') {
                for (int i = 0; i < 30; i++) {
                    lock.lock();
                    try {
                        tokens[0]++;
                        available.signal();
                    } finally {
                        lock.unlock();
                    }
                    Thread.yield();
                }
                lock.lock();
                try {
                    done[0] = true;
                    available.signalAll();
                } finally {
                    lock.unlock();
                }
                return;
            }
            while (true) {
                lock.lock();
                try {
                    while (tokens[0] == 0 && !done[0]) {
                        if (who == 'C') {
                            available.await(2, TimeUnit.MILLISECONDS);
                        } else {
                            available.await();
                        }
                    }
                    if (tokens[0] == 0) {
                        return;
                    }
                    tokens[0]--;
                    took.append(who);
                } finally {
                    lock.unlock();
                }
                Thread.yield();
            }
        });
        System.out.println("condition: tokens taken " + runs(took));
    }

    /** A and B write (B once downgrading to a read lock); C and D read, adding up the sizes they saw. */
    static void readWriteLock() throws Exception {
        ReentrantReadWriteLock rw = new ReentrantReadWriteLock();
        List<Character> data = new ArrayList<>();
        long[] seen = new long[4];
        together(4, (t, who) -> {
            for (int i = 0; i < 40; i++) {
                if (t < 2) {
                    rw.writeLock().lock();
                    boolean downgraded = false;
                    try {
                        data.add(who);
                        if (who == 'B' && i == 20) {
                            rw.readLock().lock();
                            downgraded = true;
                        }
                    } finally {
                        rw.writeLock().unlock();
                    }
                    if (downgraded) {
                        try {
                            seen[t] = data.size();
                        } finally {
                            rw.readLock().unlock();
                        }
                    }
                } else {
                    rw.readLock().lock();
                    try {
                        seen[t] += data.size();
                    } finally {
                        rw.readLock().unlock();
                    }
                }
                Thread.yield();
            }
        });
        StringBuilder writes = new StringBuilder();
        data.forEach(writes::append);
        System.out.println("read-write lock: writes " + runs(writes) + " B downgraded at size " + seen[1]
                + ", C saw " + seen[2] + ", D saw " + seen[3]);
    }

    private static final class Point {
        int x;
        int y;
    }

    /**
     * A and B move a point under the write lock (keeping y = 2x); C and D read it optimistically,
     * falling back to the read lock when validate fails; D sometimes converts a read lock to a write lock.
     */
    static void stampedLock() throws Exception {
        StampedLock sl = new StampedLock();
        Point p = new Point();
        StringBuilder writes = new StringBuilder();
        long[] sums = new long[4];
        int[] fallbacks = new int[4];
        AtomicBoolean torn = new AtomicBoolean();
        together(4, (t, who) -> {
            for (int i = 0; i < 40; i++) {
                if (t < 2) {
                    long s = sl.writeLock();
                    try {
                        p.x += t + 1;
                        p.y += 2 * (t + 1);
                        writes.append(who);
                    } finally {
                        sl.unlockWrite(s);
                    }
                } else if (who == 'D' && i % 10 == 9) {
                    long s = sl.readLock();
                    long ws = sl.tryConvertToWriteLock(s);
                    if (ws != 0L) {
                        p.x += 10;
                        p.y += 20;
                        writes.append('d');
                        sl.unlockWrite(ws);
                    } else {
                        writes.append('-');
                        sl.unlockRead(s);
                    }
                } else {
                    long s = sl.tryOptimisticRead();
                    int x = p.x;
                    int y = p.y;
                    if (!sl.validate(s)) {
                        fallbacks[t]++;
                        s = sl.readLock();
                        try {
                            x = p.x;
                            y = p.y;
                        } finally {
                            sl.unlockRead(s);
                        }
                    }
                    if (y != 2 * x) {
                        torn.set(true);
                    }
                    sums[t] += x;
                }
                Thread.yield();
            }
        });
        long s = sl.readLock();
        try {
            System.out.println("stamped lock: writes " + runs(writes) + " C saw " + sums[2] + " (" + fallbacks[2]
                    + " fallbacks), D saw " + sums[3] + " (" + fallbacks[3] + " fallbacks), x " + p.x + ", torn "
                    + torn.get());
        } finally {
            sl.unlockRead(s);
        }
    }

    /** Two permits, four threads; lower case: tryAcquire failed and the thread waited in acquire. */
    static void semaphore() throws Exception {
        Semaphore permits = new Semaphore(2);
        AtomicInteger inside = new AtomicInteger();
        AtomicInteger most = new AtomicInteger();
        StringBuilder entries = new StringBuilder();
        together(4, (t, who) -> {
            for (int i = 0; i < 25; i++) {
                char c = who;
                if (!permits.tryAcquire()) {
                    permits.acquire();
                    c = Character.toLowerCase(who);
                }
                try {
                    most.accumulateAndGet(inside.incrementAndGet(), Math::max);
                    synchronized (entries) {
                        entries.append(c);
                    }
                    Thread.yield();
                    inside.decrementAndGet();
                } finally {
                    permits.release();
                }
            }
        });
        System.out.println("semaphore: entries " + runs(entries) + " at most " + most.get() + " inside");
    }

    /** A, B and C count a latch of 30 down; D waits for it with a timed await, then plainly. */
    static void latch() throws Exception {
        CountDownLatch latch = new CountDownLatch(30);
        StringBuilder order = new StringBuilder();
        String[] waited = new String[1];
        together(4, (t, who) -> {
            if (who == 'D') {
                if (latch.await(1, TimeUnit.MILLISECONDS)) {
                    waited[0] = "within the timed await";
                } else {
                    latch.await();
                    waited[0] = "after the timed await timed out";
                }
                return;
            }
            for (int i = 0; i < 10; i++) {
                synchronized (order) {
                    order.append(who);
                    latch.countDown();
                }
                Thread.yield();
            }
        });
        System.out.println("latch: counted down " + runs(order) + ", D saw zero " + waited[0]);
    }

    /** Three parties, five rounds: each round's arrival order, and which thread ran the barrier action. */
    static void barrier() throws Exception {
        StringBuilder arrivals = new StringBuilder();
        StringBuilder rounds = new StringBuilder();
        CyclicBarrier barrier = new CyclicBarrier(3, () -> {
            synchronized (arrivals) {
                rounds.append(' ').append(arrivals).append('/').append(Thread.currentThread().getName());
                arrivals.setLength(0);
            }
        });
        int[] indexSum = new int[3];
        together(3, (t, who) -> {
            for (int r = 0; r < 5; r++) {
                synchronized (arrivals) {
                    arrivals.append(who);
                }
                indexSum[t] += barrier.await() * (r + 1);
            }
        });
        System.out.println("barrier:" + rounds + " (arrival index sums " + indexSum[0] + " " + indexSum[1] + " "
                + indexSum[2] + ")");
    }

    /**
     * Three parties, four phases: A leaves after two, C arrives without waiting and awaits the
     * advance separately. Each phase's arrival order and the thread that advanced it.
     */
    static void phaser() throws Exception {
        StringBuilder arrivals = new StringBuilder();
        StringBuilder phases = new StringBuilder();
        Phaser phaser = new Phaser(3) {
            @Override
            protected boolean onAdvance(int phase, int parties) {
                synchronized (arrivals) {
                    phases.append(' ').append(phase).append(':').append(arrivals).append('/')
                            .append(Thread.currentThread().getName());
                    arrivals.setLength(0);
                }
                return phase >= 3 || parties == 0;
            }
        };
        together(3, (t, who) -> {
            for (int p = 0; p < 4; p++) {
                synchronized (arrivals) {
                    arrivals.append(who);
                }
                if (who == 'A' && p == 1) {
                    phaser.arriveAndDeregister();
                    return;
                } else if (who == 'C') {
                    int phase = phaser.arrive();
                    Thread.yield();
                    phaser.awaitAdvance(phase);
                } else {
                    phaser.arriveAndAwaitAdvance();
                }
            }
        });
        System.out.println("phaser:" + phases + " terminated " + phaser.isTerminated());
    }

    /**
     * Four threads exchange on one Exchanger, 12 items each, then "BYE" until two finished
     * threads meet, so they leave in pairs and none is left without a partner. Each line: whose
     * items a thread received.
     */
    static void exchanger() throws Exception {
        Exchanger<String> exchanger = new Exchanger<>();
        String[] got = new String[4];
        together(4, (t, who) -> {
            StringBuilder mine = new StringBuilder();
            int given = 0;
            while (true) {
                boolean finished = given == 12;
                String theirs = exchanger.exchange(finished ? "BYE" : who + Integer.toString(given));
                if (!finished) {
                    given++;
                }
                if (!theirs.equals("BYE")) {
                    mine.append(theirs.charAt(0));
                } else if (finished) {
                    break;
                }
            }
            got[t] = mine.toString();
        });
        System.out.println("exchanger: A<-" + got[0] + " B<-" + got[1] + " C<-" + got[2] + " D<-" + got[3]);
    }

    /** The first-in-first-out mutex of LockSupport's documentation: the baton goes to the longest waiter. */
    private static final class FifoMutex {
        private final AtomicBoolean locked = new AtomicBoolean();
        private final Queue<Thread> waiters = new ConcurrentLinkedQueue<>();

        void lock() {
            Thread current = Thread.currentThread();
            waiters.add(current);
            while (waiters.peek() != current || !locked.compareAndSet(false, true)) {
                LockSupport.park(this);
            }
            waiters.remove();
        }

        void unlock() {
            locked.set(false);
            LockSupport.unpark(waiters.peek());
        }
    }

    static void baton() throws Exception {
        FifoMutex mutex = new FifoMutex();
        StringBuilder order = new StringBuilder();
        together(3, (t, who) -> {
            for (int i = 0; i < 40; i++) {
                mutex.lock();
                try {
                    order.append(who);
                } finally {
                    mutex.unlock();
                }
                Thread.yield();
            }
        });
        System.out.println("park/unpark baton: " + runs(order));
    }
}
