package corpus.juc;

import static corpus.juc.Interleavings.runs;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Virtual threads (JDK 21 and later; reached reflectively, as the corpus is compiled for 17):
 * four tasks of a virtual-thread-per-task executor take turns on a ReentrantLock and a monitor
 * and put items on a queue that two more tasks take from. Prints the order of the lock, of the
 * monitor, and which taker got whose items. On an older JDK it says virtual threads are
 * unavailable.
 */
public final class VirtualThreads {
    public static void main(String[] args) throws Exception {
        Method factory;
        Method isVirtual;
        try {
            factory = Executors.class.getMethod("newVirtualThreadPerTaskExecutor");
            isVirtual = Thread.class.getMethod("isVirtual");
        } catch (NoSuchMethodException e) {
            System.out.println("virtual threads unavailable on this JDK");
            return;
        }
        ExecutorService executor = (ExecutorService) factory.invoke(null);
        ReentrantLock lock = new ReentrantLock();
        StringBuilder lockOrder = new StringBuilder();
        StringBuilder monitorOrder = new StringBuilder();
        BlockingQueue<Character> queue = new LinkedBlockingQueue<>(2);
        List<Future<String>> futures = new ArrayList<>();
        for (int t = 0; t < 6; t++) {
            char who = (char) ('A' + t);
            futures.add(executor.submit(() -> {
                boolean virtual = (Boolean) isVirtual.invoke(Thread.currentThread());
                if (who >= 'E') {
                    StringBuilder got = new StringBuilder();
                    for (int i = 0; i < 12; i++) {
                        got.append(queue.take());
                    }
                    return virtual + " " + got;
                }
                for (int i = 0; i < 30; i++) {
                    lock.lock();
                    try {
                        lockOrder.append(who);
                    } finally {
                        lock.unlock();
                    }
                    synchronized (monitorOrder) {
                        monitorOrder.append(who);
                    }
                    if (i % 5 == 0) {
                        queue.put(who);
                    }
                    Thread.yield();
                }
                return String.valueOf(virtual);
            }));
        }
        List<String> results = new ArrayList<>();
        for (Future<String> f : futures) {
            results.add(f.get());
        }
        executor.shutdown();
        boolean terminated = executor.awaitTermination(1, TimeUnit.MINUTES);
        boolean allVirtual = results.stream().allMatch(r -> r.startsWith("true"));
        lock.lock();
        try {
            System.out.println("lock order " + runs(lockOrder));
        } finally {
            lock.unlock();
        }
        synchronized (monitorOrder) {
            System.out.println("monitor order " + runs(monitorOrder));
        }
        System.out.println("queue: E took " + results.get(4).substring(5) + ", F took " + results.get(5).substring(5));
        System.out.println("all on virtual threads " + allVirtual + ", terminated " + terminated);
    }
}
