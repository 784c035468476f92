package corpus.juc;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

import corpus.Expect;

/**
 * java.util.concurrent locks: a bounded buffer on a ReentrantLock with two Conditions, a start
 * gate (CountDownLatch), a Semaphore admitting two threads at a time, and tryLock with a
 * timeout; every line printed reveals the interleaving.
 */
@Expect
public final class Locks {
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition notFull = lock.newCondition();
    private final Condition notEmpty = lock.newCondition();
    private final Deque<Integer> items = new ArrayDeque<>();

    void put(String who, int v) throws InterruptedException {
        lock.lock();
        try {
            while (items.size() == 2) {
                notFull.await();
            }
            items.add(v);
            System.out.println(who + " put " + v);
            notEmpty.signal();
        } finally {
            lock.unlock();
        }
    }

    int take(String who) throws InterruptedException {
        lock.lock();
        try {
            while (items.isEmpty()) {
                notEmpty.await(20, TimeUnit.MILLISECONDS);
            }
            int v = items.poll();
            System.out.println(who + " took " + v);
            notFull.signal();
            return v;
        } finally {
            lock.unlock();
        }
    }

    public static void main(String[] args) throws Exception {
        Locks buffer = new Locks();
        CountDownLatch gate = new CountDownLatch(1);
        Semaphore admission = new Semaphore(2, true);
        ReentrantLock fair = new ReentrantLock(true);
        Thread[] threads = new Thread[4];
        for (int t = 0; t < threads.length; t++) {
            String who = "t" + t;
            boolean producer = t % 2 == 0;
            threads[t] = new Thread(() -> {
                try {
                    gate.await();
                    for (int i = 0; i < 20; i++) {
                        if (producer) {
                            buffer.put(who, i);
                        } else {
                            buffer.take(who);
                        }
                        admission.acquire();
                        try {
                            if (fair.tryLock(1, TimeUnit.MILLISECONDS)) {
                                try {
                                    System.out.println(who + " in fair section " + i);
                                } finally {
                                    fair.unlock();
                                }
                            } else {
                                System.out.println(who + " gave up " + i);
                            }
                        } finally {
                            admission.release();
                        }
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            threads[t].start();
        }
        gate.countDown();
        for (Thread t : threads) {
            t.join();
        }
        System.out.println("left " + buffer.items);
    }
}
